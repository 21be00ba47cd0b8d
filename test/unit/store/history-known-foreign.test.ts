// When a segment closes, the records its sidecar keeps about older segments' deliveries
// are taken, where the log can, from what it noted when it appended their attempt lines
// (history/known-foreign.ts) instead of parsing those lines back. Each such record must be
// the one the scan makes of the line (records.ts scanLine), lines whose delivery changed
// again must be left to the scan, and a sidecar made this way must be, to the byte, the
// one scanning the segment gives, whatever the log recorded (recordAttempted as the
// engine calls it: successes, retries, a second attempt or a cancel in the same segment,
// changed event ids, summaries of another shape, retention carrying pending deliveries).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { attemptBytes, changeBits } from '../../../src-main/backend/store/history/attempt-bytes.js';
import { HistoryIndex } from '../../../src-main/backend/store/history/index-state.js';
import { KnownForeign, type NotedRecords } from '../../../src-main/backend/store/history/known-foreign.js';

const records = (noted: NotedRecords) => Array.from({ length: noted.length }, (_, j) => noted.record(j));
import { scanLine } from '../../../src-main/backend/store/history/records.js';
import { newSegment } from '../../../src-main/backend/store/history/segments.js';
import { decodeSidecar } from '../../../src-main/backend/store/history/sidecar-format.js';
import type { DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, historyLogs, settle, summaryAfter } from './history-fixtures.js';

describe('records of attempt lines noted when appended', () => {
  it('are the scan`s record of each line, and lines changed again since are left to the scan (property)', () => {
    const KEYS = Object.keys(delivery());
    const change = fc.tuple(fc.constantFrom(1, 2, 6, 12), fc.constantFrom('evt_9', 'document.completed', 'http://h/é', 'late "q"'));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            ok: fc.boolean(),
            status: fc.option(fc.integer({ min: 100, max: 599 })),
            dur: fc.double({ noNaN: true, noDefaultInfinity: true }),
            change: fc.option(change),
            again: fc.boolean(),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (cases) => {
          const idx = new HistoryIndex();
          const older = newSegment('/nowhere', 1, true);
          const seg = newSegment('/nowhere', 2, true);
          idx.segs.set(1, older).set(2, seg);
          const known = new KnownForeign();
          const expected: unknown[] = [];
          cases.forEach((c, k) => {
            const old = delivery({ id: `msg_${k}`, next_attempt_at: 1_700_000_000_000, last_error: k % 2 ? 'an earlier failure' : null });
            const s = idx.addDelivery(k + 1, old, older);
            const a = attempt({
              delivery_id: old.id,
              succeeded: c.ok,
              duration_ms: c.dur,
              error: c.ok ? null : 'boom',
              response: c.status === null ? null : { status: c.status, headers: {}, body: '', truncated: false },
              next_attempt_at: c.ok ? null : 1_700_000_060_000,
            });
            const d = summaryAfter(old, a) as unknown as Record<string, unknown>;
            if (c.change) d[KEYS[c.change[0]]] = c.change[1];
            const bits = changeBits(a, old, d as unknown as DeliverySummary);
            expect(idx.d.rows.changeBits(s, a, d as unknown as DeliverySummary)).toBe(bits);
            const line = attemptBytes(a, undefined, { bits, d: d as unknown as DeliverySummary });
            const loc = { seg, off: seg.size, len: line.n - 1 };
            const rec = scanLine(Buffer.from(line.buf.subarray(0, line.n)), 0, line.n - 1);
            seg.size += line.n;
            idx.d.addAttempt(s, loc);
            known.changed(s, idx.d.c.baseSeg[s], loc, bits);
            idx.updateDelivery(s, d as unknown as DeliverySummary);
            if (c.again) {
              // A second attempt in the same segment: the first line's record is the scan's to make.
              const second = { seg, off: seg.size, len: 10 };
              seg.size += 11;
              idx.d.addAttempt(s, second);
            } else expected.push([rec, loc.off, loc.len]);
          });
          expect(JSON.parse(JSON.stringify(records(known.take(idx, seg))))).toEqual(JSON.parse(JSON.stringify(expected)));
        },
      ),
      { seed: 5, numRuns: 300 },
    );
  });

  it('leave a delivery changed since without an attempt to the scan, and forget everything once taken', () => {
    const idx = new HistoryIndex();
    const older = newSegment('/nowhere', 1, true);
    const seg = newSegment('/nowhere', 2, true);
    idx.segs.set(1, older).set(2, seg);
    const known = new KnownForeign();
    const old = delivery();
    const s = idx.addDelivery(1, old, older);
    const a = attempt();
    const d = summaryAfter(old, a);
    known.changed(s, 1, { seg, off: 0, len: 40 }, idx.d.rows.changeBits(s, a, d)!);
    idx.d.addAttempt(s, { seg, off: 0, len: 40 });
    idx.updateDelivery(s, d);
    known.changed(s, 1, undefined, -1); // e.g. cancelled: a line of its own
    expect(records(known.take(idx, seg))).toEqual([]);
    known.changed(s, 2, { seg, off: 41, len: 40 }, 0); // a delivery of the closing segment itself: not foreign
    expect(records(known.take(idx, seg))).toEqual([]);
  });
});

const setup = historyLogs({ cap: 40, segmentDeliveries: 6 });
const files = async (dir: string, ext: string) => (await readdir(dir)).filter((n) => n.endsWith(ext)).sort();

/** Deliveries attempted `lag` behind their creation through recordAttempted, with every kind of later change; returns each one's last summary. */
async function fillAttempted(log: HistoryLog, n: number, lag = 3) {
  const summaries = new Map<string, DeliverySummary>();
  const attemptOf = (id: string, nth: number, ok: boolean) =>
    attempt({
      delivery_id: id,
      attempt: nth,
      started_at: `2025-01-01T00:0${nth}:00.000Z`,
      succeeded: ok,
      error: ok ? null : 'HTTP 503',
      response: { status: ok ? 200 : 503, headers: {}, body: `r${id}`, truncated: false },
      next_attempt_at: ok ? null : 1_700_000_000_000 + nth,
    });
  for (let i = 0; i < n; i++) {
    log.recordEvent(event({ id: `evt_${i}`, document_id: `doc_${i % 3}` }), `{"n":${i}}`);
    const base = delivery({ id: `msg_${i}`, event_id: `evt_${i}`, document_id: `doc_${i % 3}`, subscription_id: `wh_${i % 4}` });
    const v = i % 11 === 5 ? { ...base, created_at: '2025-01-01T00:00:00Z', imported: true as const } : base;
    summaries.set(v.id, v);
    log.recordDelivery(v);
    const j = i - lag;
    if (j < 0) continue;
    const id = `msg_${j}`;
    const old = summaries.get(id)!;
    const ok = j % 5 !== 0;
    const a = attemptOf(id, 1, ok);
    let d = summaryAfter(old, a);
    if (j % 9 === 4) d = { ...d, url: 'http://127.0.0.1:9/moved' };
    if (j % 13 === 7) d = { ...d, last_tunnel_offline: true };
    log.recordAttempted(a, d);
    summaries.set(id, d);
    if (j % 7 === 2) {
      const b = attemptOf(id, 2, true); // a second attempt right after (same segment, usually)
      const e = summaryAfter(d, b);
      log.recordAttempted(b, e);
      summaries.set(id, e);
    } else if (j % 8 === 3) {
      const cancelled = { ...d, status: 'cancelled' as const, next_attempt_at: null };
      log.recordDelivery(cancelled);
      summaries.set(id, cancelled);
    }
  }
  await log.flush();
  return summaries;
}

describe('sidecars with records noted at append time', () => {
  it('are the bytes scanning the segments gives', async () => {
    const { dir, open } = await setup();
    const first = await open();
    await fillAttempted(first.log, 90);
    await first.log.close();
    const names = await files(dir, '.idx');
    expect(names.length).toBeGreaterThanOrEqual(4);
    const fromMemory = await Promise.all(names.map((f) => readFile(join(dir, f))));
    const foreign = fromMemory.map((b) => (decodeSidecar(b) as { header: { foreign: unknown[] } }).header.foreign.length);
    expect(foreign.filter((k) => k > 0).length).toBeGreaterThanOrEqual(3);
    for (const f of names) await rm(join(dir, f));
    const opened = await open({ cap: 1000 }); // reads the segments in full and writes their sidecars by scanning them
    await opened.log.close();
    expect(await files(dir, '.idx')).toEqual(names);
    for (const [i, f] of names.entries()) expect((await readFile(join(dir, f))).equals(fromMemory[i]), f).toBe(true);
  });
});

describe('a close of more rows than one chunk of its loops (kept-shapes.ts CHUNK_ROWS)', () => {
  it('gives the bytes scanning gives, and every delivery reads back as recorded once its segment gave its rows up', async () => {
    // Segments of 5,000, attempts 4,500 behind: each close notes ~4,500 lines about older
    // segments' deliveries and gives up ~5,000 rows, across the 4,096-row chunks.
    const { dir, open } = await setup({ cap: 100_000, segmentDeliveries: 5_000 });
    const first = await open();
    const summaries = await fillAttempted(first.log, 16_000, 4_500);
    await settle(first.log);
    for (const [id, v] of summaries) expect(first.log.getDelivery(id), id).toEqual(v);
    await first.log.close();
    const names = await files(dir, '.idx');
    expect(names.length).toBe(3);
    const fromMemory = await Promise.all(names.map((f) => readFile(join(dir, f))));
    const foreign = fromMemory.map((b) => (decodeSidecar(b) as { header: { foreign: unknown[] } }).header.foreign.length);
    expect(Math.min(...foreign.slice(1))).toBeGreaterThan(4_096);
    for (const f of names) await rm(join(dir, f));
    const opened = await open({ cap: 100_000, segmentDeliveries: 5_000 });
    await opened.log.close();
    for (const [i, f] of names.entries()) expect((await readFile(join(dir, f))).equals(fromMemory[i]), f).toBe(true);
  }, 60_000);
});
