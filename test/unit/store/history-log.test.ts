// The history log against a real temp folder: every method round-trips, paging, reading
// attempts back from disk after a reopen, a torn last line, durability of flush() and
// how concurrent flushes share writes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendFile, open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, tempDir } from './history-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
const logs: HistoryLog[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const log of logs.splice(0)) await log.close().catch(() => {});
  for (const c of cleanups.splice(0)) await c();
});

async function setup(opts: { cap?: number; segmentBytes?: number } = {}) {
  const t = await tempDir();
  cleanups.push(t.cleanup);
  const make = async () => {
    const log = createHistoryLog({ dir: t.dir, cap: opts.cap ?? 1000, segmentBytes: opts.segmentBytes });
    logs.push(log);
    await log.open();
    return log;
  };
  return { dir: t.dir, make };
}

async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
}

describe('history log: round trip', () => {
  it('returns what was recorded, before and after a reopen', async () => {
    const { make } = await setup();
    const log = await make();
    const bigBody = 'é'.repeat(20 * 1024) + 'x'.repeat(24 * 1024); // 64 KiB of UTF-8, two-byte characters included
    log.recordEvent(event({ id: 'evt_1' }), '{"id":"evt_1","data":{"n":1}}');
    log.recordEvent(event({ id: 'evt_2', type: 'document.sent' }), '{"id":"evt_2","x":"\\n\\u2028"}');
    log.recordDelivery(delivery({ id: 'msg_1', event_id: 'evt_1' }));
    log.recordAttempt(
      attempt({ delivery_id: 'msg_1', attempt: 1, succeeded: false, response: null, error: 'ECONNREFUSED', next_attempt_at: 5000 }),
    );
    log.recordAttempt(
      attempt({ delivery_id: 'msg_1', attempt: 2, response: { status: 200, headers: { a: 'b' }, body: bigBody, truncated: true } }),
    );
    log.recordDelivery(delivery({ id: 'msg_1', event_id: 'evt_1', status: 'succeeded', attempts: 2, last_status_code: 200 }));

    const check = async (l: HistoryLog) => {
      expect(l.getDelivery('msg_1')).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 });
      expect(l.getDelivery('msg_nope')).toBeUndefined();
      expect(l.getEvent('evt_2')).toEqual(event({ id: 'evt_2', type: 'document.sent' }));
      expect(await l.getEventBody('evt_1')).toBe('{"id":"evt_1","data":{"n":1}}');
      expect(await l.getEventBody('evt_2')).toBe('{"id":"evt_2","x":"\\n\\u2028"}');
      expect(await l.getEventBody('evt_nope')).toBeUndefined();
      const attempts = await l.getAttempts('msg_1');
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
      expect(attempts[0]).toMatchObject({ response: null, error: 'ECONNREFUSED', next_attempt_at: 5000 });
      expect(attempts[1].response?.body).toBe(bigBody);
      expect(attempts[1].request.headers['webhook-id']).toBe('msg_1');
      expect(await l.getAttempts('msg_nope')).toEqual([]);
      expect(l.eventsForDocument('co_a', 'doc_1').map((e) => e.id)).toEqual(['evt_1', 'evt_2']);
      expect(l.eventsForDocument('co_b', 'doc_1')).toEqual([]);
    };
    await check(log); // nothing flushed yet: served after writing the buffer out
    await log.close();
    await check(await make());
  });

  it('returns copies: changing a returned or recorded object changes nothing inside', async () => {
    const log = await (await setup()).make();
    const d = delivery({ id: 'msg_c' });
    log.recordDelivery(d);
    d.status = 'failed';
    const got = log.getDelivery('msg_c')!;
    got.url = 'http://changed';
    expect(log.getDelivery('msg_c')).toMatchObject({ status: 'pending', url: 'http://127.0.0.1:9/hook' });
  });

  it('refuses records before open() and ignores them after close()', async () => {
    const t = await tempDir();
    cleanups.push(t.cleanup);
    const log = createHistoryLog({ dir: t.dir, cap: 10 });
    expect(() => log.recordDelivery(delivery())).toThrow(/not open/);
    await log.open();
    await log.close();
    log.recordDelivery(delivery({ id: 'msg_late' }));
    expect(log.getDelivery('msg_late')).toBeUndefined();
    await expect(log.flush()).resolves.toBeUndefined();
  });

  it('keeps attempts recorded before the delivery summary', async () => {
    const { make } = await setup();
    const log = await make();
    log.recordAttempt(attempt({ delivery_id: 'msg_early', attempt: 1 }));
    expect((await log.getAttempts('msg_early')).length).toBe(1);
    log.recordDelivery(delivery({ id: 'msg_early' }));
    log.recordAttempt(attempt({ delivery_id: 'msg_early', attempt: 2 }));
    expect((await log.getAttempts('msg_early')).map((a) => a.attempt)).toEqual([1, 2]);
    await log.close();
    expect((await (await make()).getAttempts('msg_early')).map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('writes records out soon without flush()', async () => {
    const { dir, make } = await setup();
    const log = await make();
    log.recordDelivery(delivery({ id: 'msg_soon' }));
    await vi.waitFor(async () => {
      const [file] = await segmentFiles(dir);
      expect(await readFile(join(dir, file), 'utf8')).toContain('msg_soon');
    });
  });

  it('rotates segments by size and reads across them after a reopen', async () => {
    const { dir, make } = await setup({ segmentBytes: 4096 });
    const log = await make();
    for (let i = 0; i < 40; i++) {
      log.recordDelivery(delivery({ id: `msg_${i}` }));
      log.recordAttempt(
        attempt({ delivery_id: `msg_${i}`, response: { status: 500, headers: {}, body: 'b'.repeat(500), truncated: false } }),
      );
    }
    await log.close();
    expect((await segmentFiles(dir)).length).toBeGreaterThan(5);
    const again = await make();
    expect((await again.getAttempts('msg_0'))[0].response?.body).toBe('b'.repeat(500));
    expect((await again.getAttempts('msg_39'))[0].response?.status).toBe(500);
    expect(again.listDeliveries({ company_id: 'co_a' }, { limit: 100 }).data.length).toBe(40);
  });
});

describe('history log: listing deliveries', () => {
  async function filled() {
    const { make } = await setup();
    const log = await make();
    // 30 deliveries in co_a (subscriptions wh_1 / wh_2, documents doc_0..2, events evt_0..9) and 5 in co_b.
    for (let i = 0; i < 30; i++) {
      log.recordDelivery(
        delivery({
          id: `msg_a${i}`,
          subscription_id: i % 2 ? 'wh_2' : 'wh_1',
          document_id: `doc_${i % 3}`,
          event_id: `evt_${Math.floor(i / 3)}`,
        }),
      );
    }
    for (let i = 0; i < 5; i++)
      log.recordDelivery(delivery({ id: `msg_b${i}`, company_id: 'co_b', subscription_id: 'wh_b', event_id: 'evt_b' }));
    return { log, make };
  }

  const ids = (p: { data: { id: string }[] }) => p.data.map((d) => d.id);

  it('pages newest first with starting_after and has_more, also after a reopen', async () => {
    const { log, make } = await filled();
    const walk = (l: HistoryLog) => {
      const seen: string[] = [];
      let after: string | undefined;
      const flags: boolean[] = [];
      for (;;) {
        const page = l.listDeliveries({ company_id: 'co_a' }, { limit: 7, starting_after: after });
        seen.push(...ids(page));
        flags.push(page.has_more);
        if (!page.has_more) break;
        after = page.data[page.data.length - 1].id;
      }
      return { seen, flags };
    };
    const expected = Array.from({ length: 30 }, (_, i) => `msg_a${29 - i}`);
    expect(walk(log)).toEqual({ seen: expected, flags: [true, true, true, true, false] });
    // An upsert does not move a delivery in the order.
    log.recordDelivery(delivery({ id: 'msg_a3', subscription_id: 'wh_2', document_id: 'doc_0', event_id: 'evt_1', status: 'failed' }));
    expect(walk(log).seen).toEqual(expected);
    await log.close();
    const again = await make();
    expect(walk(again).seen).toEqual(expected);
    expect(again.getDelivery('msg_a3')?.status).toBe('failed');
  });

  it('an exact final page has has_more false', async () => {
    const { log } = await filled();
    const p = log.listDeliveries({ company_id: 'co_b' }, { limit: 5 });
    expect(ids(p)).toEqual(['msg_b4', 'msg_b3', 'msg_b2', 'msg_b1', 'msg_b0']);
    expect(p.has_more).toBe(false);
    expect(log.listDeliveries({ company_id: 'co_b' }, { limit: 4 }).has_more).toBe(true);
  });

  it('filters by subscription, document and event, together too', async () => {
    const { log } = await filled();
    expect(ids(log.listDeliveries({ company_id: 'co_a', subscription_id: 'wh_2' }, { limit: 3 }))).toEqual([
      'msg_a29',
      'msg_a27',
      'msg_a25',
    ]);
    expect(ids(log.listDeliveries({ company_id: 'co_a', subscription_id: 'wh_2' }, { limit: 3, starting_after: 'msg_a25' }))).toEqual([
      'msg_a23',
      'msg_a21',
      'msg_a19',
    ]);
    expect(ids(log.listDeliveries({ company_id: 'co_a', document_id: 'doc_1' }, { limit: 4 }))).toEqual([
      'msg_a28',
      'msg_a25',
      'msg_a22',
      'msg_a19',
    ]);
    expect(ids(log.listDeliveries({ company_id: 'co_a', event_id: 'evt_4' }, { limit: 10 }))).toEqual(['msg_a14', 'msg_a13', 'msg_a12']);
    expect(ids(log.listDeliveries({ company_id: 'co_a', event_id: 'evt_4', subscription_id: 'wh_1' }, { limit: 10 }))).toEqual([
      'msg_a14',
      'msg_a12',
    ]);
    expect(ids(log.listDeliveries({ company_id: 'co_a', document_id: 'doc_1', subscription_id: 'wh_1' }, { limit: 2 }))).toEqual([
      'msg_a28',
      'msg_a22',
    ]);
    expect(log.listDeliveries({ company_id: 'co_a', subscription_id: 'wh_none' }, { limit: 10 })).toEqual({ data: [], has_more: false });
  });

  it('keeps companies apart', async () => {
    const { log } = await filled();
    expect(log.listDeliveries({ company_id: 'co_b' }, { limit: 50 }).data.every((d) => d.company_id === 'co_b')).toBe(true);
    expect(log.listDeliveries({ company_id: 'co_a' }, { limit: 50 }).data.some((d) => d.company_id === 'co_b')).toBe(false);
    // Another company's subscription or event, or another company's delivery as a cursor: nothing.
    expect(log.listDeliveries({ company_id: 'co_a', subscription_id: 'wh_b' }, { limit: 50 }).data).toEqual([]);
    expect(log.listDeliveries({ company_id: 'co_a', event_id: 'evt_b' }, { limit: 50 }).data).toEqual([]);
    expect(log.listDeliveries({ company_id: 'co_a' }, { limit: 50, starting_after: 'msg_b3' })).toEqual({ data: [], has_more: false });
    expect(log.listDeliveries({ company_id: 'co_a' }, { limit: 50, starting_after: 'msg_unknown' })).toEqual({ data: [], has_more: false });
  });
});

describe('history log: crashes and durability', () => {
  it('tolerates a torn last line and a damaged line, and appends after them', async () => {
    const { dir, make } = await setup();
    const log = await make();
    log.recordEvent(event({ id: 'evt_t' }), '{"a":1}');
    log.recordDelivery(delivery({ id: 'msg_t', event_id: 'evt_t' }));
    log.recordAttempt(attempt({ delivery_id: 'msg_t' }));
    await log.close();
    const [file] = await segmentFiles(dir);
    const path = join(dir, file);
    await appendFile(path, 'this is not json\n{"t":"a","d":"msg_t","v":{"delivery_id":"msg_t","attempt":2,"requ');
    const sizeBefore = (await stat(path)).size;

    const again = await make();
    expect(again.getDelivery('msg_t')?.status).toBe('pending');
    expect((await again.getAttempts('msg_t')).map((a) => a.attempt)).toEqual([1]);
    expect((await stat(path)).size).toBeLessThan(sizeBefore); // the torn tail was cut off
    again.recordAttempt(attempt({ delivery_id: 'msg_t', attempt: 3 }));
    again.recordDelivery(delivery({ id: 'msg_t', event_id: 'evt_t', status: 'succeeded' }));
    await again.close();

    const third = await make();
    expect(third.getDelivery('msg_t')?.status).toBe('succeeded');
    expect((await third.getAttempts('msg_t')).map((a) => a.attempt)).toEqual([1, 3]);
    expect(await third.getEventBody('evt_t')).toBe('{"a":1}');
  });

  it('flush() makes records durable: a second instance sees them without close()', async () => {
    const { make } = await setup();
    const log = await make();
    log.recordEvent(event({ id: 'evt_d' }), 'body-d');
    log.recordDelivery(delivery({ id: 'msg_d', event_id: 'evt_d' }));
    log.recordAttempt(attempt({ delivery_id: 'msg_d' }));
    await log.flush();
    // No close(): as if the process died right after the group commit.
    const other = await make();
    expect(other.getDelivery('msg_d')).toBeDefined();
    expect(await other.getEventBody('evt_d')).toBe('body-d');
    expect((await other.getAttempts('msg_d')).length).toBe(1);
  });

  it('concurrent flushes share one write and sync; an idle flush does no I/O', async () => {
    const { dir, make } = await setup();
    const log = await make();
    // Find FileHandle's prototype from a real handle to count fdatasync calls.
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const syncs = vi.spyOn(proto, 'datasync');

    await log.flush();
    expect(syncs).toHaveBeenCalledTimes(0);

    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      log.recordDelivery(delivery({ id: `msg_f${i}` }));
      flushes.push(log.flush());
    }
    await Promise.all(flushes);
    expect(syncs.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(syncs.mock.calls.length).toBeLessThanOrEqual(2);

    const before = syncs.mock.calls.length;
    await Promise.all([log.flush(), log.flush(), log.flush()]);
    expect(syncs.mock.calls.length).toBe(before);

    // A flush that starts while another is syncing still covers its own records.
    log.recordDelivery(delivery({ id: 'msg_g1' }));
    const first = log.flush();
    log.recordDelivery(delivery({ id: 'msg_g2' }));
    const second = log.flush();
    await Promise.all([first, second]);
    const other = await make();
    expect(other.getDelivery('msg_g2')).toBeDefined();
    expect(other.listDeliveries({ company_id: 'co_a' }, { limit: 100 }).data.length).toBe(52);
  });
});
