// The inspector's time index over a history larger than a JavaScript call's argument
// limit: the first inspector request after a start-up with a long history indexes every
// delivery at once, which once failed with "Maximum call stack size exceeded" (a spread
// of ~150,000+ entries into push) and answered 500. Real history log, real temp folder.
import { afterEach, describe, expect, it } from 'vitest';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { DeliveryTimeIndex, byTime } from '../../../src-main/backend/console-api/inspector/time-index.js';
import { delivery, tempDir } from '../store/history-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const N = 160_000; // above the ~125,000 arguments a spread call takes on V8
const T0 = Date.parse('2025-01-01T00:00:00.000Z');

function record(log: HistoryLog, from: number, count: number, msAt: (i: number) => number): void {
  for (let i = from; i < from + count; i++)
    log.recordDelivery(delivery({ id: `msg_${i}`, created_at: new Date(msAt(i)).toISOString(), status: 'succeeded', attempts: 1 }));
}

function ordered(list: readonly { ms: number; id: string }[]): boolean {
  for (let i = 1; i < list.length; i++) if (byTime(list[i - 1], list[i]) > 0) return false;
  return true;
}

describe('inspector time index: a long history', () => {
  it(`indexes ${N.toLocaleString('en-US')} deliveries at once, then ${N.toLocaleString('en-US')} older ones recorded later, in time order`, async () => {
    const t = await tempDir();
    cleanups.push(t.cleanup);
    const log = createHistoryLog({ dir: t.dir, cap: 2 * N + 10 });
    cleanups.unshift(() => log.close());
    await log.open();
    record(log, 0, N, (i) => T0 + N * 1000 + i * 1000);
    const index = new DeliveryTimeIndex(log);
    const first = index.entries('co_a');
    expect(first.length).toBe(N);
    expect(ordered(first)).toBe(true);
    // Imported deliveries: recorded now, created before everything known (the merge path).
    record(log, N, N, (i) => T0 + (i - N) * 1000);
    const both = index.entries('co_a');
    expect(both.length).toBe(2 * N);
    expect(ordered(both)).toBe(true);
    expect(both[0].id).toBe(`msg_${N}`);
    expect(both[both.length - 1].id).toBe(`msg_${N - 1}`);
  }, 60_000);
});
