// Hidden classes kept for objects made once per segment close. V8 gives an object the
// hidden class (map) its constructor's property stores lead to, and keeps such a map only
// while some object has it: the transitions to it are weak. A class made once per close
// (NotedRecords, OwnIds, …) therefore gets new maps at each close once the previous
// close's object is collected, and the code that meets it, compiled with the old maps,
// is deoptimized ("insufficient type feedback", "wrong map") and compiled again by
// TurboFan at every close: work for V8's compiler threads on every 25,000 deliveries
// (docs/benchmark.md, figure 3). One small instance of each such class, kept here, keeps
// its maps, so the code compiled at one close serves the next.
const kept: object[] = [];

/**
 * Rows a per-close loop handles per call. A function called once per close whose work is
 * one long loop is optimized on stack (OSR), and V8 holds that code only weakly: it is gone
 * after the next full collections, so each close compiled it again. A loop run a chunk at a
 * time, each chunk a call, is optimized as a function, and that code stays.
 */
export const CHUNK_ROWS = 4096;

/** Keeps `o` (a small instance made like the per-close ones) alive for as long as the process runs; returns it. */
export function keepShape<T extends object>(o: T): T {
  kept.push(o);
  return o;
}

/** The kept object that `test` accepts (tests: it must have the maps a real one gets). */
export function keptWhere(test: (o: object) => boolean): object | undefined {
  return kept.find(test);
}
