// Cutting the history log back to a mark after a failed store write (disk full): the
// records appended since are gone from memory and from disk, earlier ones stay, and
// appending works again at once. Real files in a temp folder.
import { afterEach, describe, expect, it } from 'vitest';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, tempDir } from './history-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function openLog(dir: string, segmentBytes?: number): Promise<HistoryLog> {
  const log = createHistoryLog({ dir, cap: 1000, segmentBytes });
  await log.open();
  cleanups.push(() => log.close());
  return log;
}

describe('history rollback', () => {
  it.each([
    ['in one segment', undefined],
    ['across segments', 400],
  ])('forgets everything after the mark, %s, on disk and in memory', async (_name, segmentBytes) => {
    const t = await tempDir();
    cleanups.push(t.cleanup);
    const log = await openLog(t.dir, segmentBytes);
    log.recordEvent(event({ id: 'evt_kept' }), '{"kept":true}');
    log.recordDelivery(delivery({ id: 'msg_kept', event_id: 'evt_kept' }));
    await log.flush();
    const mark = log.mark();
    log.recordEvent(event({ id: 'evt_gone' }), '{"gone":true}');
    log.recordDelivery(delivery({ id: 'msg_gone', event_id: 'evt_gone' }));
    log.recordAttempt(attempt({ delivery_id: 'msg_kept' }));
    log.recordDelivery(delivery({ id: 'msg_kept', event_id: 'evt_kept', attempts: 1, status: 'failed' }));
    await log.flush();
    await log.rollback(mark);
    expect(log.getEvent('evt_gone')).toBeUndefined();
    expect(log.getDelivery('msg_gone')).toBeUndefined();
    expect(log.getDelivery('msg_kept')).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await log.getAttempts('msg_kept')).toEqual([]);
    expect(await log.getEventBody('evt_kept')).toBe('{"kept":true}');
    // Appending works again, and what is on disk says the same after a reopen.
    log.recordEvent(event({ id: 'evt_after' }), '{"after":true}');
    await log.flush();
    await log.close();
    const again = await openLog(t.dir, segmentBytes);
    expect(again.getEvent('evt_gone')).toBeUndefined();
    expect(again.getDelivery('msg_gone')).toBeUndefined();
    expect(await again.getEventBody('evt_after')).toBe('{"after":true}');
    expect(await again.getEventBody('evt_kept')).toBe('{"kept":true}');
  });
});
