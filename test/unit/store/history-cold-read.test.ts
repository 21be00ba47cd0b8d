// The cold fields' synchronous read (store/history/sidecar-read.ts, cold-source.ts): a
// sidecar is read in pieces, never whole, and only the columns asked for are decoded, into
// one buffer V8 maps itself (not malloc: docs/architecture.md, "Memory"). What it reads
// must be exactly what decoding the whole file gives, for this version's sidecars and the
// previous one's, with a header (string tables) that spans many pieces and characters
// cut between two; a damaged or stale sidecar is refused with the reason. The idle
// collection lets the cache and the scratch buffer go; they come back when asked.
import { describe, expect, it } from 'vitest';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { dropColdCaches } from '../../../src-main/backend/store/history/cold-source.js';
import { decodeSidecarFor, sidecarArrays } from '../../../src-main/backend/store/history/sidecar-format.js';
import { holdsReadScratch, READ_PIECE, readSidecarColumns, readWholeFile } from '../../../src-main/backend/store/history/sidecar-read.js';
import { asVersion2, attempt, delivery, event, historyLogs, internals, settle } from './history-fixtures.js';

const setup = historyLogs({ cap: 20_000, segmentDeliveries: 2500 });

/** `n` deliveries, one event each, most attempted; failed ones carry a long error of their own with characters of 2 and 3 bytes. */
async function fill(log: HistoryLog, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const at = new Date(Date.parse('2026-11-26T10:00:00.000Z') + i * 1000).toISOString();
    log.recordEvent(event({ id: `evt_${i}`, timestamp: at }), `{"n":${i}}`);
    const v = delivery({ id: `msg_${i}`, event_id: `evt_${i}`, subscription_id: `wh_${i % 3}`, created_at: at });
    log.recordDelivery(v);
    if (i % 11 === 0) continue; // pending
    const failed = i % 3 === 0;
    const err = failed ? `étape ${i} refusée — ✓✗ ${'é€'.repeat(20 + (i % 7))}` : null;
    log.recordAttempted(attempt({ delivery_id: v.id, started_at: at }), {
      ...v,
      status: failed ? 'failed' : 'succeeded',
      attempts: 1,
      last_attempt_at: at,
      last_status_code: failed ? 500 : 200,
      last_error: err,
      last_duration_ms: 5 + (i % 13),
    });
  }
  await settle(log);
}

const NAMES = [
  ...['lastAt', 'code', 'dur', 'next', 'attempts', 'type', 'url', 'err', 'shape'].map((n) => `r.${n}`),
  ...['idBytes', 'idLen', 'aCount', 'aOff', 'aLen', 'aItem'],
];

/** Each sidecar's path and its segment's size. */
async function sidecars(dir: string): Promise<{ path: string; segBytes: number }[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.idx')).sort();
  return Promise.all(names.map(async (f) => ({ path: join(dir, f), segBytes: (await stat(join(dir, f.replace('.idx', '.jsonl')))).size })));
}

describe('history: a sidecar read in pieces for the cold fields', () => {
  it('reads exactly what decoding the whole file gives, into one buffer outside malloc, in pieces of a small scratch buffer', async () => {
    const { dir, open } = await setup();
    const { log } = await open();
    await fill(log, 6000);
    const all = await sidecars(dir);
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const { path, segBytes } of all) {
      const bytes = await readFile(path);
      expect(bytes.length).toBeGreaterThan(2 * READ_PIECE); // many pieces, the header (its error strings) among them
      for (const file of [bytes, asVersion2(bytes)]) {
        await writeFile(path, file);
        const whole = decodeSidecarFor(file, segBytes);
        if (typeof whole === 'string') throw new Error(whole);
        const read = readSidecarColumns(path, segBytes, NAMES);
        if (typeof read === 'string') throw new Error(read);
        expect(read.header).toEqual(whole.header);
        const wholeCols = new Map(sidecarArrays(whole));
        const buffers = new Set<ArrayBufferLike>();
        for (const name of NAMES) {
          const col = read.cols.get(name);
          expect([name, Array.from(col ?? [])]).toEqual([name, Array.from(wholeCols.get(name) ?? [])]);
          expect(col?.constructor).toBe(wholeCols.get(name)?.constructor);
          buffers.add(col?.buffer as ArrayBufferLike);
        }
        expect(buffers.size).toBe(1);
        expect((read.cols.get('r.lastAt')?.buffer as { resizable?: boolean }).resizable).toBe(true);
      }
      await writeFile(path, bytes);
    }
    await log.close();
  });

  it('reads a whole sidecar at start-up into a buffer outside malloc, byte for byte', async () => {
    const { dir, open } = await setup();
    const { log } = await open();
    await fill(log, 3000);
    await log.close();
    const [{ path }] = await sidecars(dir);
    const whole = await readWholeFile(path);
    expect(whole.equals(await readFile(path))).toBe(true);
    expect((whole.buffer as { resizable?: boolean }).resizable).toBe(true);
    await expect(readWholeFile(`${path}.gone`)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a damaged, cut, stale or missing sidecar with the reason', async () => {
    const { dir, open } = await setup();
    const { log } = await open();
    await fill(log, 3000);
    await log.close();
    const [{ path, segBytes }] = await sidecars(dir);
    const good = await readFile(path);
    expect(typeof readSidecarColumns(path, segBytes, NAMES)).toBe('object');
    expect(readSidecarColumns(path, segBytes + 1, NAMES)).toBe(`it describes ${segBytes} bytes of a segment of ${segBytes + 1}`);
    const flipped = Buffer.from(good);
    flipped[Math.floor(flipped.length / 2)] ^= 0x20;
    await writeFile(path, flipped);
    expect(readSidecarColumns(path, segBytes, NAMES)).toBe('checksum mismatch');
    await writeFile(path, good.subarray(0, good.length - 100));
    expect(readSidecarColumns(path, segBytes, NAMES)).toBe('checksum mismatch');
    await writeFile(path, 'not an index');
    expect(readSidecarColumns(path, segBytes, NAMES)).toBe('not an index file of this version');
    expect(readSidecarColumns(`${path}.gone`, segBytes, NAMES)).toMatch(/ENOENT/);
    await writeFile(path, good);
    expect(readSidecarColumns(path, segBytes, ['r.nope'])).toBe('column r.nope missing');
  });

  it('lets the cold cache and the scratch buffer go when the idle collection asks, and reads them again when needed', async () => {
    const { open } = await setup();
    const { log } = await open();
    await fill(log, 6000);
    const { idx } = internals(log);
    const page = () => JSON.stringify(log.listDeliveries({ company_id: 'co_a' }, { limit: 3000 }));
    const answer = page();
    expect(idx.cold.size).toBeGreaterThan(0);
    expect(holdsReadScratch()).toBe(true);
    dropColdCaches();
    expect(idx.cold.size).toBe(0);
    expect(holdsReadScratch()).toBe(false);
    const reads = idx.cold.reads;
    expect(page()).toBe(answer);
    expect(idx.cold.reads).toBeGreaterThan(reads);
    expect(idx.cold.size).toBeGreaterThan(0);
    await log.close();
  });
});
