// The history writer encodes lines into 256 KiB slabs, reused once written: lines that cross from one slab to
// the next, a line longer than a slab, several segments, and multi-byte characters must
// all read back exactly, before and after a reopen.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { SegmentWriter } from '../../../src-main/backend/store/history/writer.js';
import { newSegment } from '../../../src-main/backend/store/history/segments.js';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, tempDir } from './history-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Records `n` deliveries of evt_1, each with one attempt whose request body is `bodyOf(i)`; `between(i)` may pause after each. */
async function recordMany(
  log: HistoryLog,
  n: number,
  bodyOf: (i: number) => string,
  between: (i: number) => Promise<unknown> | undefined,
): Promise<void> {
  for (let i = 0; i < n; i++) {
    log.recordDelivery(delivery({ id: `msg_${i}`, event_id: 'evt_1' }));
    log.recordAttempt(
      attempt({
        delivery_id: `msg_${i}`,
        request: { method: 'POST', url: 'http://127.0.0.1:9/h', headers: { 'webhook-id': `msg_${i}` }, body: bodyOf(i) },
      }),
    );
    await between(i);
  }
}

describe('history writer: slabs', () => {
  it('reads back every record after crossing slabs, a line bigger than a slab, and segment rotation', async () => {
    const t = await tempDir();
    cleanups.push(t.cleanup);
    const make = async () => {
      const log = createHistoryLog({ dir: t.dir, cap: 100_000, segmentBytes: 2 * 1024 * 1024 });
      await log.open();
      return log;
    };
    const log: HistoryLog = await make();
    const n = 3000;
    const bodyOf = (i: number) => `{"i":${i},"é":"${'ü'.repeat(i % 7)}","pad":"${'x'.repeat(700 + (i % 13))}"}`;
    const huge = 'ß'.repeat(700 * 1024); // 1.4 MB of UTF-8: more than a slab
    log.recordEvent(event({ id: 'evt_1' }), huge);
    // let some batches go out in between
    await recordMany(log, n, bodyOf, (i) => (i % 500 === 0 ? new Promise((r) => setTimeout(r, 1)) : undefined));
    const check = async (l: HistoryLog) => {
      expect(await l.getEventBody('evt_1')).toBe(huge);
      for (const i of [0, 1, 341, 1337, 1338, 2000, n - 1]) {
        const [a] = await l.getAttempts(`msg_${i}`);
        expect(a.request.body).toBe(bodyOf(i));
        expect(a.delivery_id).toBe(`msg_${i}`);
      }
    };
    await check(log);
    await log.close();
    expect((await readdir(t.dir)).filter((f) => f.endsWith('.jsonl')).length).toBeGreaterThan(1);
    const again = await make();
    await check(again);
    expect(again.listDeliveries({ company_id: 'co_a' }, { limit: 5000 }).data).toHaveLength(n);
    await again.close();
  });

  it('copies each encoded line as its buffer holds it now: lines of one length over and over, then another buffer', async () => {
    const t = await tempDir();
    cleanups.push(t.cleanup);
    const w = new SegmentWriter({ delayMs: 1, batchBytes: 1 << 20, onBackgroundError: (err) => expect.fail(String(err)) });
    await mkdir(t.dir);
    const seg = newSegment(t.dir, 1, true);
    let expected = '';
    const put = (buf: Buffer, i: number, loc: boolean) => {
      const text = `{"i":${i},"pad":"${'ab'[i % 2].repeat(i % 5)}"}\n`; // five lengths, each line's own bytes
      const n = buf.write(text, 0, 'latin1');
      if (loc) expect(w.appendBytes(seg, buf, n)).toEqual({ seg, off: expected.length, len: n - 1 });
      else w.putBytes(seg, buf, n);
      expected += text;
    };
    const first = Buffer.alloc(64);
    for (let i = 0; i < 300; i++) put(first, i, i % 3 === 0);
    const second = Buffer.alloc(64); // a line buffer that grew: a new one
    for (let i = 300; i < 600; i++) put(second, i, i % 3 === 0);
    put(first, 600, false);
    await w.close();
    expect(await readFile(seg.path, 'latin1')).toBe(expected);
    expect(seg.size).toBe(expected.length);
  });

  it('reuses a slab once it is written: 12 MB of history costs a few slabs, not 48, and every record reads back', async () => {
    const t = await tempDir();
    cleanups.push(t.cleanup);
    const log = createHistoryLog({ dir: t.dir, cap: 100_000, segmentBytes: 64 * 1024 * 1024 });
    await log.open();
    const slabs = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const bodyOf = (i: number) => `{"i":${i},"pad":"${String(i % 10).repeat(3000 + (i % 17))}"}`;
    const n = 4000; // ~12 MB of attempt lines
    log.recordEvent(event({ id: 'evt_1' }), '{}');
    // each batch written before more comes, as under steady load
    await recordMany(log, n, bodyOf, (i) => (i % 100 === 99 ? log.flush() : undefined));
    await log.flush();
    const made = slabs.mock.calls.filter(([size]) => size === 256 * 1024).length;
    slabs.mockRestore();
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(5); // the current slab, those of a batch being written and the spares: not one per 256 KiB written
    for (const i of [0, 1, 99, 100, 777, 2048, 3333, n - 1]) {
      const [a] = await log.getAttempts(`msg_${i}`);
      expect(a.request.body).toBe(bodyOf(i));
    }
    await log.close();
  });
});
