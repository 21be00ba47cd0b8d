// The idle collection that follows a release of the history's index also lets go of the
// code compiled for the work before it (memory-settings.ts releaseForIdle, CODE_FLUSH_FLAGS):
// functions that ran keep their bytecode through ordinary full collections, lose it in that
// one, and are compiled again at their next call with the same results; the collections
// after it keep code as before. V8's own counter of bytecode (v8.getHeapCodeStatistics)
// shows what was let go; a full collection is V8's gc(), exposed for this test only.
import { getHeapCodeStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src-main/backend/clock.js';
import { afterIdleCollection, releaseForIdle } from '../../../src-main/backend/memory-settings.js';
import { HOLD_MS } from '../../../src-main/backend/store/history/held-index.js';
import { historyLogs, internals, settle } from './history-fixtures.js';
import { fill } from './history-answers.js';

const setup = historyLogs({ cap: 10_000, segmentDeliveries: 40 });

/** A full collection, in a later turn. */
async function collect(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const bytecode = () => getHeapCodeStatistics().bytecode_and_metadata_size;

/** 400 functions with bodies of their own, each called once (so each has its bytecode): their sum. */
function compiled(tag: string): { fns: ((n: number) => number)[]; sum: () => number } {
  const fns = Array.from(
    { length: 400 },
    (_, i) =>
      new Function('n', `let s = ${i}; for (let k = 0; k < n; k++) s += (k * ${i + 7}) % 13; return s + ${tag.length};`) as (
        n: number,
      ) => number,
  );
  const sum = () => fns.reduce((a, f) => a + f(50), 0);
  sum();
  return { fns, sum };
}

describe('code let go with the history index', () => {
  it('drops the bytecode of functions that ran in the collection after a release only, and they answer the same after', async () => {
    const clock = new ManualClock(Date.parse('2026-11-27T06:00:00.000Z'));
    const { open } = await setup();
    const log = (await open({ clock })).log;
    fill(log, 100);
    await settle(log);

    const first = compiled('first');
    const want = first.sum();
    await collect();
    const kept = bytecode();
    // Index made just now: nothing is released, and an ordinary collection keeps the functions' code.
    releaseForIdle();
    await collect();
    afterIdleCollection();
    expect(internals(log).held.held).toBe(true);
    expect(bytecode()).toBeGreaterThan(kept * 0.9);

    clock.advance(HOLD_MS);
    releaseForIdle();
    expect(internals(log).held.held).toBe(false);
    await collect();
    afterIdleCollection();
    const flushed = bytecode();
    expect(flushed).toBeLessThan(kept * 0.8);
    expect(first.sum()).toBe(want); // compiled again, same answers

    // The next collections keep code again.
    const second = compiled('second');
    await collect();
    const after = bytecode();
    await collect();
    expect(bytecode()).toBeGreaterThan(after * 0.9);
    expect(second.sum()).toBeGreaterThan(0);
    expect(log.getDelivery('msg_00001')?.id).toBe('msg_00001');
  });
});
