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
import { setFlagsFromString } from 'node:v8';

/** How much the old generation may grow past what the last full collection left, in %. */
export const HEAP_GROWING_PERCENT = 20;

/**
 * The flags, as V8 reads them. Only flags known to every V8 the service runs on (Node 20
 * and later, Electron's): an unknown flag is refused with a message on stdout.
 */
export const MEMORY_FLAGS = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];

let applied = false;

/** Applies the flags once per process (V8 reads them at every heap-limit decision, so applying them late still counts). */
export function applyMemorySettings(): void {
  if (applied) return;
  applied = true;
  for (const flag of MEMORY_FLAGS) setFlagsFromString(flag);
}
