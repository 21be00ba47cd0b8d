// Returns memory to the system once the service has gone quiet after work, as a desktop
// app is expected to: a memory-reducing full garbage collection (V8 compacts its old
// generation, shrinks the young generation to its smallest size and gives the freed
// pages back), run once per quiet stretch and only when the heap has grown since the
// last one (the first quiet stretch after start-up always counts). V8 has such a "memory reducer" of its own, but it is only armed by a full
// collection during the load and then waits for a low allocation rate: after a burst
// of deliveries the young generation (up to 32 MiB, all resident) stayed as it was for
// as long as the service idled (docs/benchmark.md, figure 6).
//
// Quiet means the process used less than QUIET_CPU_PERCENT of a core over each of
// QUIET_TICKS one-second ticks (CPU time from process.cpuUsage, so it covers every kind
// of work: requests, deliveries, the receiver, timers). The collection is asked for
// through Node's inspector API in this process (node:inspector, a session that opens no
// port): HeapProfiler.collectGarbage is V8's memory-reducing collection, the only one
// reachable from JavaScript without --expose-gc. It costs 10-50 ms of CPU, once.
// Ticks use the system clock: a real-world wait that a frozen test clock must not stop.
//
// Either rule collects only when there is something to give back: the heap has grown by
// GROWTH_BYTES since the last collection, or the young generation is larger than
// YOUNG_KEPT_BYTES. A little work right after a collection (a console's polling, the last
// deliveries of a burst being logged) can regrow the young generation to 4 MiB while
// the heap as a whole stays under the growth mark; V8 then keeps it for as long as the
// service idles. Or `due` says that what is let go right before a collection (below) holds
// something now that it could not let go at the last one: a history's index is kept for 60 s
// after it is made, so a service started with a long history, whose first quiet seconds came
// sooner, kept its whole index for as long as it idled (nothing grew to call for another).
//
// A backlog of deliveries worked off is the other moment work ends: the heap grew for the
// waiting deliveries (each a row, a job and its history entry), and once the backlog is
// down, most of that is garbage, while the young generation is at its cap. When the
// backlog (checked every BACKLOG_TICK_MS) has held at least BURST_BACKLOG deliveries and
// is down to BACKLOG_DONE or fewer, the same collection runs at once instead of after the
// quiet seconds, which a service that goes on answering now and then may never reach.
//
// Right before each collection, what the service keeps only to be quicker and makes again
// when asked is let go (`release`: the history's cache of closed segments' cold fields and
// its read buffer, cold-source.ts), so that the collection frees it too.
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { systemClock, type Clock, type Timer } from './clock.js';

/** A tick of the idle check, in ms. */
export const IDLE_TICK_MS = 1000;
/** CPU use below which a tick counts as quiet, in % of one core. */
export const QUIET_CPU_PERCENT = 2;
/** Quiet ticks in a row before the collection. */
export const QUIET_TICKS = 3;
/** How much the heap must have grown since the last collection for another one, in bytes. */
export const GROWTH_BYTES = 4 * 1024 * 1024;
/** A young generation larger than this (both semi-spaces; its smallest is 1 MiB) is worth a collection too, in bytes. */
export const YOUNG_KEPT_BYTES = 2 * 1024 * 1024;
/** How often the backlog of deliveries is looked at, in ms. */
export const BACKLOG_TICK_MS = 250;
/** A backlog at least this large is a burst worth collecting after. */
export const BURST_BACKLOG = 1000;
/** A burst's backlog is worked off once at most this many deliveries wait (retries may wait for hours). */
export const BACKLOG_DONE = 100;

export interface IdleCollectorOptions {
  clock?: Clock;
  /** Deliveries waiting now (sent or not yet); without it, only quiet stretches collect. */
  backlog?: () => number;
  /** Lets caches and scratch buffers that are made again on demand go, right before each collection. */
  release?: () => void;
  /** Right after each collection (or its failure). */
  collected?: () => void;
  /** Whether `release` has something to let go now that it could not at the last collection: worth a quiet collection too. */
  due?: () => boolean;
}

export interface IdleCollector {
  /** Collections run so far. */
  readonly collections: number;
  stop(): void;
}

/** Starts the idle check (one per process: index.ts starts it through memory-settings.ts). */
export function startIdleCollector({ clock = systemClock, backlog, release, collected, due }: IdleCollectorOptions = {}): IdleCollector {
  let lastCpu = process.cpuUsage();
  let quiet = 0;
  // 0: the first quiet stretch after start-up collects too (loading the store and the
  // history leaves garbage and a grown young generation behind).
  let heapAfterLast = 0;
  let running = false;
  let disabled = false;
  let burst = 0;
  const state = { collections: 0 };

  const collectIfGrown = (): void => {
    if (running || disabled) return;
    if (getHeapStatistics().total_heap_size < heapAfterLast + GROWTH_BYTES && youngBytes() <= YOUNG_KEPT_BYTES && !due?.()) return;
    running = true;
    release?.();
    collect()
      .then(() => {
        state.collections++;
        heapAfterLast = getHeapStatistics().total_heap_size;
      })
      .catch(() => {
        disabled = true; // no inspector in this build of Node: nothing to do, and nothing to retry
      })
      .finally(() => {
        collected?.();
        running = false;
        quiet = 0;
        lastCpu = process.cpuUsage();
      });
  };
  const tick = (): void => {
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    const usedMs = (cpu.user + cpu.system) / 1000;
    quiet = usedMs < (IDLE_TICK_MS * QUIET_CPU_PERCENT) / 100 ? quiet + 1 : 0;
    if (quiet >= QUIET_TICKS) collectIfGrown();
  };
  const backlogTick = (count: () => number): void => {
    const waiting = count();
    burst = Math.max(burst, waiting);
    if (burst < BURST_BACKLOG || waiting > BACKLOG_DONE) return;
    burst = waiting;
    collectIfGrown();
  };
  const timers: Timer[] = [clock.setInterval(tick, IDLE_TICK_MS).unref()];
  if (backlog) timers.push(clock.setInterval(() => backlogTick(backlog), BACKLOG_TICK_MS).unref());
  return {
    get collections() {
      return state.collections;
    },
    stop: () => timers.forEach((t) => clock.clearInterval(t)),
  };
}

/** The young generation's committed size now (both semi-spaces), in bytes. */
function youngBytes(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
  return 0;
}

/**
 * V8's memory-reducing full collection, through an inspector session of this process.
 * The session is closed again right after: while one is open, Node also hands every
 * console message to V8's inspector, which keeps the last thousand (and what they hold).
 */
async function collect(): Promise<void> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (err) => (err ? reject(err) : resolve())));
  } finally {
    // Not from within the session's own callback (Node 20 then stalls its event loop): on the next turn.
    await new Promise<void>((resolve) => systemClock.setTimeout(resolve, 0));
    session.disconnect();
  }
}
