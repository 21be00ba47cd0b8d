// Process-wide memory settings of a running Countersign, applied by a backend's start
// (index.ts, once its store and history are loaded and it listens), so they hold however the service was started: `npm start`, the desktop
// app's main process, `node out/main/headless.js`, or `countersign` running a backend of
// its own. They are V8 flags set from inside the process (v8.setFlagsFromString): an
// environment variable or a command-line flag would only hold when a launcher sets it,
// and the entry is often started directly. Node and Electron's main process both start
// V8 with --no-freeze-flags-after-init, which is what lets a flag be set this late.
// docs/architecture.md (Memory) says why.
//
// What one flag changes, measured (docs/benchmark.md, figures 5 and 6): under steady
// load V8 lets its old generation grow by up to 4x its live size before the next full
// collection (its heap growing factor follows the ratio of GC speed to allocation
// speed). Under the mixed soak the old generation reached ~90 MiB with ~30 MiB live.
// A fixed growing factor of 1.2 (20 %, with V8's own floor of a few MiB per step) keeps
// it near what is live: full collections come sooner, each one costs the same.
// Not before the history is loaded: loading grows the heap from nothing to the index's
// size, and a full collection at every 20 % of that growth made start-up with 1,000,000
// deliveries 0.2-0.3 s slower (1.6-1.7 s -> 1.75-1.9 s to the ready line, 1.95 -> 2.4 s CPU).
//
// The young generation: V8 doubles it (two semi-spaces, up to 16 MiB each on 64-bit)
// whenever more has survived its collections since the last growth than it holds, so any
// long enough load takes it to 32 MiB, all of it resident. Its largest size is read once
// when the heap is made (--max-semi-space-size), but Node 20's V8 reads the growth factor
// at every growth: the cap below sets it to 1 (no growth) while the young generation is at
// or above its cap, and back to 2 below it (V8 shrinks it after a collection when little
// is allocated, and it may grow again up to the cap). Newer V8 (Node 22 and later,
// Electron's) refuses a factor under 2, so there the flag changes nothing and the young
// generation grows as V8 decides.
// The cap follows the load: YOUNG_GENERATION_CAP_MIB under steady load (requests, deliveries
// sent as they come), YOUNG_GENERATION_BURST_CAP_MIB while a burst of deliveries waits
// (BURST_BACKLOG or more). Under steady load what survives a young collection is little
// (the requests in flight), so a small young generation costs no measurable CPU and holds
// half the memory (the soak: 8 MiB less resident in the young generation and V8 sets the
// old generation's next limit 4 MiB lower, since it adds the young generation's size); in a
// burst the waiting deliveries survive, and a small one makes V8 copy and promote them
// sooner (10-20 % more CPU per delivery at 8 MiB). The burst's young generation is given
// back by the idle collector's collection once the burst is worked off (idle-collector.ts),
// and regrows only up to the steady cap.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { BURST_BACKLOG, startIdleCollector } from './idle-collector.js';
import { dropColdCaches } from './store/history/cold-source.js';
import { startPeriodicTrim, trimMalloc } from './malloc-trim.js';
import { indexReleaseDue, releaseIdleIndexes, setAroundRebuild } from './store/history/held-index.js';

/**
 * What the idle collection lets go first: quiet histories' indexes (made again when needed),
 * then the cold cache. When an index went, the service has been quiet after a stretch of
 * work, and that collection also lets go of the code compiled for the work (CODE_FLUSH_FLAGS).
 */
export function releaseForIdle(): void {
  if (releaseIdleIndexes() > 0) setCodeFlush(true);
  dropColdCaches();
}

/**
 * After each idle collection: compiled code is kept again from now on, and glibc gives
 * the free pages of its heap back (malloc-trim.ts), which the collection's freed
 * buffers have just added to.
 */
export function afterIdleCollection(): void {
  setCodeFlush(false);
  trimMalloc();
}

/**
 * V8 flags that make a full collection drop every function's bytecode and Sparkplug's
 * baseline code unless it is running or optimized (optimized code keeps the bytecode it
 * was made from, and stays): each such function is compiled again at its next call, as
 * after a restart.
 * Set for the one idle collection that follows an index's release, and cleared after it.
 * Without them V8 drops only the bytecode of functions unused over five full collections,
 * never baseline code: after the bench's soak an idle service kept ~6 MiB of code for
 * the work it had done (a fresh service holds ~1.5).
 */
export const CODE_FLUSH_FLAGS = ['flush-baseline-code', 'stress-flush-code'];

let codeFlush = false;

function setCodeFlush(on: boolean): void {
  if (on === codeFlush) return;
  codeFlush = on;
  for (const flag of CODE_FLUSH_FLAGS) setFlagsFromString(`--${on ? '' : 'no-'}${flag}`);
}

/** How much the old generation may grow past what the last full collection left, in %. */
export const HEAP_GROWING_PERCENT = 20;

/** The young generation's largest size (both semi-spaces together) under steady load, in MiB, where V8 honours it. */
export const YOUNG_GENERATION_CAP_MIB = 8;

/** Its largest size while a burst of deliveries waits (BURST_BACKLOG or more), in MiB. */
export const YOUNG_GENERATION_BURST_CAP_MIB = 16;

/**
 * The flags, as V8 reads them. Only flags known to every V8 the service runs on (Node 20
 * and later, Electron's): an unknown flag is refused with a message on stdout.
 */
export const MEMORY_FLAGS = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];

let applied = false;
let backlogOf: () => number = () => 0;

/**
 * Applies the flags, the young generation's cap and the idle collector once per process
 * (V8 reads the flags at every heap-limit decision, so applying them late still counts).
 * `backlog` counts the deliveries waiting now, so that a worked-off burst collects at once
 * (idle-collector.ts).
 */
export function applyMemorySettings(backlog?: () => number): void {
  // The latest backend's count: a process that starts another backend (the desktop app
  // after a restart of its service, tests) watches that one's backlog from then on.
  if (backlog) backlogOf = backlog;
  if (applied) return;
  applied = true;
  for (const flag of MEMORY_FLAGS) setFlagsFromString(flag);
  capYoungGeneration(() => (backlogOf() >= BURST_BACKLOG ? YOUNG_GENERATION_BURST_CAP_MIB : YOUNG_GENERATION_CAP_MIB) * 1024 * 1024);
  startIdleCollector({ backlog: () => backlogOf(), release: releaseForIdle, collected: afterIdleCollection, due: indexReleaseDue });
  startPeriodicTrim();
}

/** The young generation's committed size now (both semi-spaces), in bytes. */
export function youngGenerationBytes(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
  return 0;
}

/** After every collection, stops the young generation's growth at `capBytes()` (growth factor 1) and lets it grow below. */
function capYoungGeneration(capBytes: () => number): void {
  let capped = false;
  const check = (): void => {
    const atCap = youngGenerationBytes() >= capBytes();
    if (atCap === capped) return;
    capped = atCap;
    setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
  };
  check();
  // A rebuild of the history's index (held-index.ts) allocates in one turn: the young
  // generation is held at its size meanwhile (growth factor 1), then the check decides again.
  setAroundRebuild((rebuild) => {
    setFlagsFromString('--semi-space-growth-factor=1');
    capped = true;
    try {
      rebuild();
    } finally {
      check();
    }
  });
  // One entry per collection, handed over by Node on the event loop's next turn: a single
  // turn that allocates (and keeps) more than the young generation holds can still take
  // it one step past the cap before the check sees it; work in ordinary turns cannot.
  new PerformanceObserver(check).observe({ entryTypes: ['gc'] });
}
