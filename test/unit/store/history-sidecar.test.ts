// Index sidecars of the history log against a real temp folder (docs/storage.md, "Start-up
// with a long history"): one is written beside each closed segment, the next open loads
// it and ends in exactly the state a full scan gives, and one that is damaged, stale or
// missing is ignored (said in the warnings), the segment scanned and the sidecar written again.
import { describe, expect, it } from 'vitest';
import { copyFile, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { asVersion2, attempt, delivery, event, historyLogs } from './history-fixtures.js';
import { decodeSidecar, encodeSidecar } from '../../../src-main/backend/store/history/sidecar-format.js';

const setup = historyLogs({ cap: 40, segmentDeliveries: 6 });

const files = async (dir: string, ext: string) => (await readdir(dir)).filter((n) => n.endsWith(ext)).sort();

/**
 * A history with every kind of record: deliveries updated and attempted in later
 * segments than their creation, pending ones carried by retention, an event recorded
 * twice, summaries kept whole (an imported one with its own time format).
 */
async function fill(log: HistoryLog, n: number) {
  for (let i = 0; i < n; i++) {
    const doc = `doc_${i % 3}`;
    log.recordEvent(event({ id: `evt_${i}`, document_id: doc }), `{"n":${i}}`);
    const base = { id: `msg_${i}`, event_id: `evt_${i}`, document_id: doc, subscription_id: `wh_${i % 4}` };
    log.recordDelivery(i % 7 === 3 ? { ...delivery(base), created_at: '2025-01-01T00:00:00Z', imported: true } : delivery(base));
    if (i >= 2) {
      const j = i - 2; // the delivery made two before this one: often in the previous segment
      const pending = j % 5 === 0;
      log.recordAttempt(
        attempt({
          delivery_id: `msg_${j}`,
          succeeded: !pending,
          response: { status: pending ? 503 : 200, headers: {}, body: `r${j}`, truncated: false },
        }),
      );
      log.recordDelivery(
        delivery({
          id: `msg_${j}`,
          event_id: `evt_${j}`,
          document_id: `doc_${j % 3}`,
          subscription_id: `wh_${j % 4}`,
          status: pending ? 'pending' : 'succeeded',
          attempts: 1,
          last_status_code: pending ? 503 : 200,
        }),
      );
    }
    if (i % 10 === 9)
      log.recordEvent(event({ id: `evt_${i - 5}`, document_id: `doc_${(i - 5) % 3}`, type: 'document.completed' }), `{"again":${i}}`);
  }
  await log.flush();
}

/** Everything the log answers, as one comparable value. */
async function stateOf(log: HistoryLog, n: number) {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      log.getDelivery(`msg_${i}`) ?? null,
      await log.getAttempts(`msg_${i}`),
      log.getEvent(`evt_${i}`) ?? null,
      (await log.getEventBody(`evt_${i}`)) ?? null,
    );
  }
  out.push(log.listDeliveries({ company_id: 'co_a' }, { limit: 1000 }));
  for (let s = 0; s < 4; s++) out.push(log.listDeliveries({ company_id: 'co_a', subscription_id: `wh_${s}` }, { limit: 1000 }));
  for (let d = 0; d < 3; d++) out.push(log.eventsForDocument('co_a', `doc_${d}`));
  return JSON.stringify(out);
}

describe('history log: index sidecars', () => {
  it('writes one beside each closed segment; the next open loads them and ends where a full scan does', async () => {
    const { dir, open } = await setup();
    const n = 80;
    const first = await open();
    await fill(first.log, n);
    await first.log.close(); // retention under way ends first: at most `cap` deliveries remain
    const segments = await files(dir, '.jsonl');
    expect(segments.length).toBeGreaterThan(4); // retention ran, so carried copies are in there too
    expect(await files(dir, '.idx')).toEqual(segments.slice(0, -1).map((s) => s.replace('.jsonl', '.idx')));

    let opened = await open();
    expect(opened.warnings).toEqual([]); // loaded from the sidecars: none was missing
    const fromSidecars = await stateOf(opened.log, n);
    await opened.log.close();

    // Without the sidecars: the same state, said in the warnings, and the sidecars are back.
    for (const f of await files(dir, '.idx')) await rm(join(dir, f));
    opened = await open();
    expect(opened.warnings).toHaveLength(1);
    expect(opened.warnings[0]).toMatch(/delivery history files had no index beside them.*nothing is lost/);
    expect(await stateOf(opened.log, n)).toBe(fromSidecars);
    await opened.log.close();
    expect(await files(dir, '.idx')).toEqual(segments.slice(0, -1).map((s) => s.replace('.jsonl', '.idx')));

    opened = await open();
    expect(opened.warnings).toEqual([]);
    expect(await stateOf(opened.log, n)).toBe(fromSidecars);
    // New records after a sidecar-loaded open continue both sequences.
    opened.log.recordEvent(event({ id: 'evt_new', document_id: 'doc_0' }), '{}');
    opened.log.recordDelivery(delivery({ id: 'msg_new', event_id: 'evt_new' }));
    expect(opened.log.listDeliveries({ company_id: 'co_a' }, { limit: 1 }).data[0].id).toBe('msg_new');
    expect(opened.log.eventsForDocument('co_a', 'doc_0').at(-1)?.id).toBe('evt_new');
  });

  it('a carried copy of a delivery still known from an older segment (a crash before that file went) replaces it, as a scan does', async () => {
    const { dir, open } = await setup();
    let opened = await open();
    await fill(opened.log, 12);
    await opened.log.close();
    const oldest = (await files(dir, '.jsonl'))[0];
    await copyFile(join(dir, oldest), join(dir, `${oldest}.kept`));
    opened = await open();
    await fill(opened.log, 80); // the same ids again: retention drops the oldest segment, carrying its pending deliveries
    await opened.log.close();
    expect(await files(dir, '.jsonl')).not.toContain(oldest);
    await copyFile(join(dir, `${oldest}.kept`), join(dir, oldest)); // as if the crash came before the delete
    await rm(join(dir, `${oldest}.kept`));

    // A cap above what is there: retention does not start at open and change what is compared.
    opened = await open({ cap: 1000 });
    const fromSidecars = await stateOf(opened.log, 80);
    await opened.log.close();
    for (const f of await files(dir, '.idx')) await rm(join(dir, f));
    opened = await open({ cap: 1000 });
    expect(await stateOf(opened.log, 80)).toBe(fromSidecars);
  });

  it('takes the sidecar from memory as the log moves past a segment: the same bytes as scanning the segment gives', async () => {
    const { dir, open } = await setup();
    const first = await open();
    await fill(first.log, 80); // retention runs too (cap 40): carried deliveries and events
    await first.log.close();
    const names = await files(dir, '.idx');
    expect(names.length).toBeGreaterThanOrEqual(4);
    const fromMemory = await Promise.all(names.map((f) => readFile(join(dir, f))));
    // Deliveries attempted and updated in a later segment than their creation: records the sidecar keeps as they are.
    const foreign = fromMemory.map((b) => (decodeSidecar(b) as { header: { foreign: unknown[] } }).header.foreign.length);
    expect(foreign.filter((n) => n > 0).length).toBeGreaterThan(2);
    for (const f of names) await rm(join(dir, f));
    const opened = await open({ cap: 1000 }); // reads the segments in full and writes their sidecars by scanning them
    await opened.log.close();
    expect(await files(dir, '.idx')).toEqual(names);
    for (const [i, f] of names.entries()) expect((await readFile(join(dir, f))).equals(fromMemory[i]), f).toBe(true);
  });

  it('from memory, encodes each column as it takes it: the same bytes as encoding the whole sidecar`s arrays at once', async () => {
    // A closing segment's columns are encoded as they are taken (from views of the index's
    // own columns where its slots are one run, else gathered), and only those bytes are kept
    // until the sidecar is written: the file must be what encoding its whole arrays gives.
    const { dir, open } = await setup();
    const first = await open();
    await fill(first.log, 80); // retention runs too (cap 40): freed slots taken again, so some segments' slots are not one run
    await first.log.close();
    const names = await files(dir, '.idx');
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const f of names) {
      const bytes = await readFile(join(dir, f));
      const data = decodeSidecar(bytes);
      if (typeof data === 'string') throw new Error(`${f}: ${data}`);
      expect(Buffer.concat(encodeSidecar(data)).equals(bytes), f).toBe(true);
    }
  });

  it('stores its columns packed, and still loads sidecars of the previous version (every column raw) without reading the segments', async () => {
    const { dir, open } = await setup({ cap: 1000 });
    const n = 60;
    const first = await open();
    await fill(first.log, n);
    const live = await stateOf(first.log, n);
    await first.log.close();
    const sidecars = await files(dir, '.idx');
    expect(sidecars.length).toBeGreaterThan(3);
    for (const f of sidecars) {
      const now = await readFile(join(dir, f));
      expect(now.subarray(0, 8).toString()).toBe('CSIDX03\n');
      const old = asVersion2(now);
      expect(old.length).toBeGreaterThan(now.length); // the packed columns are smaller
      await writeFile(join(dir, f), old);
    }
    const opened = await open();
    expect(opened.warnings).toEqual([]); // read as they are: no segment was scanned
    expect(await stateOf(opened.log, n)).toBe(live);
    await opened.log.close();
    for (const f of sidecars) expect((await readFile(join(dir, f))).subarray(0, 8).toString()).toBe('CSIDX02\n'); // left as they were
  });

  it('loads the sidecar of a segment with an empty column (no delivery attempted yet: a held-back backlog) without reading the segment', async () => {
    // Node's zlib.crc32 answers 0 for an empty view of an ArrayBuffer with no memory (an
    // empty typed array's): taken into the running checksum, it reset it, so such a
    // sidecar never matched its checksum and the segment was read in full at every start.
    const { dir, open } = await setup({ cap: 1000 });
    const first = await open();
    for (let i = 0; i < 20; i++) {
      first.log.recordEvent(event({ id: `evt_${i}` }), `{"n":${i}}`);
      first.log.recordDelivery(delivery({ id: `msg_${i}`, event_id: `evt_${i}` }));
    }
    await first.log.flush();
    const live = await stateOf(first.log, 20);
    await first.log.close();
    const sidecars = await files(dir, '.idx');
    expect(sidecars.length).toBeGreaterThanOrEqual(3);
    for (const f of sidecars) {
      const data = decodeSidecar(await readFile(join(dir, f)));
      expect(typeof data === 'string' ? data : data.aOff.length, f).toBe(0);
    }
    const opened = await open();
    expect(opened.warnings).toEqual([]);
    expect(await stateOf(opened.log, 20)).toBe(live);
    await opened.log.close();
  });

  it('keeps delivery ids of any characters: from memory the same bytes as scanning gives, and loaded back exactly', async () => {
    // Ids above U+00FF are kept aside by the id table and in the sidecar's header; Latin-1
    // ones are bytes. Attempts two deliveries later often land in the next segment: records
    // about an older segment's delivery, which the sidecar must tell from its own.
    const { dir, open } = await setup({ cap: 1000 });
    const idOf = (i: number) => (i % 3 === 1 ? `msg_✓${i}` : i % 3 === 2 ? `msg_é${i}` : `msg_${i}`);
    const first = await open();
    for (let i = 0; i < 20; i++) {
      first.log.recordEvent(event({ id: `evt_${i}` }), `{"n":${i}}`);
      first.log.recordDelivery(delivery({ id: idOf(i), event_id: `evt_${i}` }));
      if (i >= 2)
        first.log.recordAttempt(
          attempt({ delivery_id: idOf(i - 2), response: { status: 200, headers: {}, body: `r${i - 2}`, truncated: false } }),
        );
    }
    await first.log.flush();
    const stateNow = async (log: HistoryLog) =>
      JSON.stringify(
        await Promise.all(Array.from({ length: 20 }, async (_, i) => [log.getDelivery(idOf(i)), await log.getAttempts(idOf(i))])),
      );
    const live = await stateNow(first.log);
    await first.log.close();
    const names = await files(dir, '.idx');
    expect(names.length).toBeGreaterThanOrEqual(3);
    const fromMemory = await Promise.all(names.map((f) => readFile(join(dir, f))));
    const wide = fromMemory.map((b) => (decodeSidecar(b) as { header: { wideIds: unknown[]; foreign: unknown[] } }).header);
    expect(wide.every((h) => h.wideIds.length > 0) && wide.some((h) => h.foreign.length > 0)).toBe(true);
    const opened = await open();
    expect(opened.warnings).toEqual([]);
    expect(await stateNow(opened.log)).toBe(live);
    await opened.log.close();
    for (const f of names) await rm(join(dir, f));
    const scanned = await open(); // reads the segments in full and writes their sidecars by scanning them
    expect(await stateNow(scanned.log)).toBe(live);
    await scanned.log.close();
    for (const [i, f] of names.entries()) expect((await readFile(join(dir, f))).equals(fromMemory[i]), f).toBe(true);
  });

  it('ignores a damaged sidecar or one that does not match its segment, says so, and writes it again', async () => {
    const { dir, open } = await setup({ cap: 1000 });
    const n = 30;
    const { log } = await open();
    await fill(log, n);
    const live = await stateOf(log, n);
    await log.close();
    const [first, second] = await files(dir, '.idx');
    const bytes = await readFile(join(dir, first));
    bytes[bytes.length >> 1] ^= 0xff; // one flipped byte
    await writeFile(join(dir, first), bytes);
    const seg2 = join(dir, second.replace('.idx', '.jsonl'));
    const seg2Bytes = await readFile(seg2);
    await writeFile(join(dir, second), (await readFile(join(dir, second))).subarray(0, 40)); // cut short

    let opened = await open();
    expect(opened.warnings).toHaveLength(2);
    expect(opened.warnings[0]).toContain(join(dir, first.replace('.idx', '.jsonl')));
    expect(opened.warnings[0]).toMatch(/could not be used \(checksum mismatch\): the file was read in full instead \(nothing is lost\)/);
    expect(opened.warnings[1]).toContain(seg2);
    expect(await stateOf(opened.log, n)).toBe(live);
    await opened.log.close();
    opened = await open();
    expect(opened.warnings).toEqual([]);
    expect(await stateOf(opened.log, n)).toBe(live);
    await opened.log.close();

    // A segment changed behind the sidecar's back (here: a line cut off its end) is scanned, not trusted.
    const lastNl = seg2Bytes.lastIndexOf(10, seg2Bytes.length - 2);
    await truncate(seg2, lastNl + 1);
    opened = await open();
    expect(opened.warnings.join('\n')).toMatch(/could not be used \(it describes \d+ bytes of a segment of \d+\)/);
  });

  it('rolling back across a rotation leaves no sidecar of a segment that was cut', async () => {
    const { dir, open } = await setup({ cap: 1000 });
    const { log } = await open();
    await fill(log, 10);
    const mark = log.mark();
    await fill(log, 0);
    for (let i = 100; i < 130; i++) log.recordDelivery(delivery({ id: `msg_${i}`, event_id: `evt_${i}` }));
    await log.flush();
    await log.close(); // sidecars of the segments closed after the mark are written
    expect((await files(dir, '.idx')).length).toBeGreaterThan(1);
    const reopened = await open();
    await reopened.log.rollback(mark);
    expect(reopened.log.getDelivery('msg_100')).toBeUndefined();
    const markName = `seg-${String(mark.segment).padStart(6, '0')}.idx`;
    expect((await files(dir, '.idx')).filter((f) => f >= markName)).toEqual([]);
    await reopened.log.close();
    const after = await open();
    expect(after.warnings).toEqual([]);
    expect(after.log.getDelivery('msg_9')?.id).toBe('msg_9');
    expect(after.log.getDelivery('msg_100')).toBeUndefined();
  });
});
