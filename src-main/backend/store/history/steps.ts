// Work done as a generator, one step a `yield` (a closing segment's sidecar,
// sidecar-frozen.ts packSteps): at once, or in slices of a few ms between requests.
import type { Clock } from '../../clock.js';

/** Runs the steps to the end at once. */
export function runNow<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** How long steps run in a row before the event loop gets a turn (ms, by `clock`). */
export const SLICE_MS = 4;

/**
 * Runs the steps in slices of about SLICE_MS (a step is one column: a few ms at most),
 * with a turn of the event loop between slices (requests go first); stops, undefined, as
 * soon as `stop()` says so before a step.
 */
export async function runInSlices<T>(steps: Generator<void, T>, clock: Clock, stop: () => boolean): Promise<T | undefined> {
  try {
    for (;;) {
      const start = clock.now();
      do {
        if (stop()) return undefined;
        const r = steps.next();
        if (r.done) return r.value;
      } while (clock.now() - start < SLICE_MS);
      await new Promise<void>((resolve) => clock.setTimeout(resolve, 0));
    }
  } finally {
    steps.return(undefined as T);
  }
}
