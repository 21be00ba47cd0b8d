// Index sidecars (docs/storage.md, "Start-up with a long history"): beside each closed
// segment `seg-NNNNNN.jsonl`, a file `seg-NNNNNN.idx` (sidecar-format.ts) holds what the
// start-up scan derives from that segment, so start-up reads a few megabytes instead of
// scanning gigabytes: deliveries based in the segment become rows, records about
// deliveries of older segments are kept as they are and replayed first. It is taken from
// the history's index as the log moves past the segment, or made by scanning the segment
// into an index of its own with the start-up loader itself (sidecar-build.ts); either
// way, applying it leaves the index exactly as scanning would. The open segment
// has none (it is scanned); a sidecar that is missing, damaged or does not match its
// segment's length is ignored and the segment scanned (loader.ts says so at start-up).
import { open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { decodeEvent } from './event-table.js';
import { decodeRow } from './delivery-row.js';
import { idKeyBytes } from './closed-ids.js';
import type { IdBytes } from './id-table.js';
import { latin1Of, systemArray } from './columns.js';
import { HistoryIndex } from './index-state.js';
import { Loader } from './loader.js';
import { newSegment, scanSegment, type Loc, type Segment } from './segments.js';
import { COLD_SOURCE_COLUMNS, coldSourceOf, coldSourceOfColumns } from './cold-source.js';
import { compactRows, rowsInUse } from './compact-rows.js';
import { foreignRecords, freezeSegment, sidecarOf, touchedDelivery, type PackedSidecar } from './sidecar-build.js';
import { packSteps } from './sidecar-frozen.js';
import { runInSlices } from './steps.js';
import { systemClock } from '../../clock.js';
import type { NotedRecords } from './known-foreign.js';
import { OwnIds } from './own-ids.js';
import { readWholeFile, readWholeFileSync } from './sidecar-read.js';
import { decodeSidecarFor, sidecarPieces, sidecarPath, sidecarRows, type SidecarData, type SidecarHeader } from './sidecar-format.js';

export { sidecarPath };

/** Scans a closed segment and writes its sidecar; does nothing for a damaged segment (it is scanned at each start, and reported). */
export async function writeSidecar(segmentPath: string, segId: number): Promise<void> {
  const seg = newSegment(dirname(segmentPath), segId, false);
  const own = new HistoryIndex(true);
  own.segs.set(seg.id, seg);
  const loader = new Loader(own);
  const foreign: SidecarHeader['foreign'] = [];
  const scanned = await scanSegment(seg.path, (rec, off, len) => {
    const id = touchedDelivery(rec);
    if (id !== undefined && own.d.slot(id) === undefined) foreign.push([rec, off, len]);
    else loader.apply(seg, rec, { seg, off, len });
  });
  if (scanned.skipped > 0 || scanned.validLength !== scanned.fileSize) return;
  const live: number[] = [];
  for (let s = 0; s < own.d.end; s++) if (own.d.isLive(s)) live.push(s);
  const made = sidecarOf(own, live, own.ev.all(), {
    segBytes: scanned.validLength,
    created: seg.created,
    nextDeliverySeq: loader.nextDeliverySeq,
    nextEventSeq: loader.nextEventSeq,
    foreign,
  });
  await putSidecar(seg.path, made);
}

/** Writes the sidecar made of the index as the log moved past the segment at `segmentPath`, with the file's foreign records. */
async function writeSnapshot(segmentPath: string, snap: PackedSidecar, known?: NotedRecords): Promise<boolean> {
  const { header } = snap;
  const foreign = await foreignRecords(segmentPath, new OwnIds(snap.idBytes, snap.idLen, header.wideIds), header.segBytes, known);
  if (!foreign) return false; // damaged or changed since: scanned at the next start, and reported
  header.foreign = foreign;
  return putSidecar(segmentPath, snap);
}

/**
 * The deliveries of segment `segId` give up the cold fields its sidecar `snap`, just
 * written, holds as they are (cold-rows.ts), then the rows they leave give their room
 * back (compact-rows.ts). Only the columns a ColdSource needs are decoded again (not the
 * ids, the hot columns, the events).
 */
function evictSegment(idx: HistoryIndex, segId: number, snap: PackedSidecar): void {
  const cols = snap.packed.decoded(snap.header, COLD_SOURCE_COLUMNS);
  const src = typeof cols === 'string' ? cols : coldSourceOfColumns(snap.header, cols);
  if (typeof src === 'string') throw new Error(`history: a sidecar just made does not decode: ${src}`);
  const need = rowsInUse(idx.d, idx.pool);
  idx.d.evict(segId, src, snap.slots);
  compactRows(idx.d, idx.pool, need);
}

/** Writes the sidecar; false if its segment was dropped meanwhile (the sidecar is not kept then). */
async function putSidecar(segmentPath: string, made: PackedSidecar): Promise<boolean> {
  const path = sidecarPath(segmentPath);
  const tmp = `${path}.tmp`;
  // No fsync: a sidecar lost or torn in a crash fails its checksum and the segment is scanned.
  // writeFile writes the pieces one after the other (no joined copy).
  await writeFile(tmp, sidecarPieces(made.header, made.packed), { mode: 0o600 });
  await rename(tmp, path);
  // Retention may have dropped the segment while it was scanned: it deletes the segment,
  // then its sidecar. Looking for the segment after the rename leaves none behind either way.
  if (
    await stat(segmentPath).then(
      () => true,
      () => false,
    )
  )
    return true;
  await removeSidecar(segmentPath);
  return false;
}

/** The segment's sidecar if it can be used for a segment of `fileSize` bytes: 'missing', or why not. */
export async function readSidecar(segmentPath: string, fileSize: number): Promise<SidecarData | string> {
  let buf: Buffer;
  try {
    buf = await readWholeFile(sidecarPath(segmentPath));
  } catch (err) {
    return whyUnread(err);
  }
  return decodeSidecarFor(buf, fileSize);
}

/**
 * readSidecar, synchronously (the index rebuilt on demand: history-log.ts), its columns
 * decoded outside malloc (columns.ts systemArray: a rebuild's malloc'd blocks kept the C
 * heap grown for good; start-up keeps malloc, which costs it less CPU).
 */
export function readSidecarSync(segmentPath: string, fileSize: number): SidecarData | string {
  let buf: Buffer;
  try {
    buf = readWholeFileSync(sidecarPath(segmentPath));
  } catch (err) {
    return whyUnread(err);
  }
  return decodeSidecarFor(buf, fileSize, systemArray);
}

function whyUnread(err: unknown): string {
  return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `unreadable (${(err as Error).message})`;
}

/** Applies a sidecar read by readSidecar to the index, as scanning `seg` would have. */
export function applySidecar(data: SidecarData, seg: Segment, idx: HistoryIndex, loader: Loader): void {
  const { header: h } = data;
  for (const [rec, off, len] of h.foreign) loader.apply(seg, rec, { seg, off, len });
  // Each string and event id once (a reference held while the rows take theirs).
  const strMap = Int32Array.from(h.strings, (v) => (v === null ? -1 : idx.strs.add(v)));
  const evtMap = Int32Array.from(h.eventIds, (v) => (v === null ? -1 : idx.eventIds.add(v)));
  const ids: IdBytes = { bytes: data.idBytes, at: loader.arrays(Float64Array, h.rows), len: data.idLen };
  const aFirst = loader.arrays(Int32Array, h.rows + 1);
  for (let k = 0, at = 0; k < h.rows; k++) {
    ids.at[k] = at;
    at += Math.max(0, ids.len[k]);
    aFirst[k + 1] = aFirst[k] + data.aCount[k];
  }
  // Each id's key worked out once, for the "already known?" lookup below and the insert after it.
  ids.key = loader.arrays(Float64Array, h.rows);
  for (let k = 0; k < h.rows; k++) if (ids.len[k] >= 0) ids.key[k] = idKeyBytes(ids.bytes, ids.at[k], ids.len[k]);
  const wide = new Map(h.wideIds);
  const odd = new Map(h.odd);
  const bulk: number[] = [];
  const one: number[] = [];
  for (let k = 0; k < h.rows; k++) {
    const fresh = ids.len[k] >= 0 && !odd.has(k) && idx.d.slotBytes(ids.bytes, ids.at[k], ids.len[k], ids.key[k]) === undefined;
    (fresh ? bulk : one).push(k);
  }
  const slots = idx.d.importRows(data.rows, bulk, ids, seg.id, strMap, evtMap);
  bulk.forEach((k, j) => {
    if (idx.d.c.aHead[slots[j]] !== -1) return; // left in the sidecar (import-rows.ts)
    for (let a = aFirst[k]; a < aFirst[k + 1]; a++) idx.d.addAttemptAt(slots[j], seg.id, data.aOff[a], data.aLen[a], data.aItem[a]);
  });
  for (const k of one) {
    const id = ids.len[k] < 0 ? (wide.get(k) as string) : latin1Of(ids.bytes, ids.at[k], ids.at[k] + ids.len[k]);
    const v =
      odd.get(k) ??
      decodeRow(
        data.rows,
        k,
        id,
        (i) => h.strings[i] as string,
        (i) => h.eventIds[i] as string,
      );
    const locs: Loc[] = [];
    for (let a = aFirst[k]; a < aFirst[k + 1]; a++)
      locs.push({ seg, off: data.aOff[a], len: data.aLen[a], ...(data.aItem[a] >= 0 ? { item: data.aItem[a] } : {}) });
    const known = idx.d.slot(id);
    if (known !== undefined) idx.rebase(known, v, seg, locs);
    else idx.d.setAttempts(idx.addDelivery(data.rows.seq[k], v, seg), locs);
  }
  // The rows' cold fields stay in this sidecar: the next one's records about them read them from here.
  idx.cold.put(seg.id, coldSourceOf(data));
  applyEvents(data, seg, idx, strMap, evtMap);
  strMap.forEach((g) => g >= 0 && idx.strs.release(g));
  evtMap.forEach((g) => g >= 0 && idx.eventIds.release(g));
  seg.created += h.created;
  loader.nextDeliverySeq = Math.max(loader.nextDeliverySeq, h.nextDeliverySeq);
  loader.nextEventSeq = Math.max(loader.nextEventSeq, h.nextEventSeq);
}

/** How many delivery rows the sidecars of these segments hold together (to size the tables once). */
export async function sidecarRowsOf(segmentPaths: string[]): Promise<number> {
  let rows = 0;
  for (const path of segmentPaths) {
    const fh = await open(sidecarPath(path), 'r').catch(() => null);
    if (!fh) continue;
    try {
      const first = Buffer.alloc(16);
      const { bytesRead } = await fh.read(first, 0, 16, 0);
      rows += sidecarRows(first.subarray(0, bytesRead));
    } finally {
      await fh.close();
    }
  }
  return rows;
}

/** The sidecar's events: compact ones not yet recorded in bulk, the others as the scan records them. */
function applyEvents(data: SidecarData, seg: Segment, idx: HistoryIndex, strMap: Int32Array, evtMap: Int32Array): void {
  const { header: h, events: e } = data;
  for (let k = 0; k < e.num.length; k++) {
    const g = evtMap[e.num[k]];
    const loc = { seg, off: e.off[k], len: e.len[k] };
    if (idx.ev.find(idx.eventIds.get(g)) === undefined) idx.ev.importRow(g, e, k, strMap, seg.id);
    else
      idx.putEvent(
        e.seq[k],
        decodeEvent(e, k, h.eventIds[e.num[k]] as string, (i) => h.strings[i] as string),
        loc,
      );
  }
  for (const [seq, v, off, len] of h.events) idx.putEvent(seq, v, { seg, off, len });
}

/** Deletes a segment's sidecar, if any. */
export async function removeSidecar(segmentPath: string): Promise<void> {
  await unlink(sidecarPath(segmentPath)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Sidecars written one at a time in the background, after the writer has written their segment out. */
export class SidecarQueue {
  private tail: Promise<void> = Promise.resolve();
  /** Sidecars copied from the index and not made yet. */
  private unmade = 0;
  /** Sidecars asked for and not written (or given up) yet. */
  private pending = 0;

  constructor(
    private readonly writtenOut: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /**
   * Writes `seg`'s sidecar: from `idx` when given (the log is moving past `seg`: nothing
   * of a later segment is recorded yet; `known`: records of its lines the log could tell,
   * foreignRecords), else by scanning the file. From the index, only a copy is taken now
   * (sidecar-frozen.ts); it is encoded in slices between requests, in the background.
   */
  add(seg: Segment, idx?: HistoryIndex, known?: NotedRecords): void {
    const { path, id } = seg;
    const frozen = idx && freezeSegment(idx, seg);
    if (frozen) this.unmade++;
    this.pending++;
    this.tail = this.tail.then(async () => {
      try {
        if (!frozen || !idx) {
          await this.writtenOut();
          return await writeSidecar(path, id);
        }
        const snap = await runInSlices(packSteps(idx, frozen), systemClock, () => seg.dropping === true).finally(() => this.unmade--);
        if (!snap) return; // retention is dropping the segment: its rows are going
        await this.writtenOut();
        if (await writeSnapshot(path, snap, known)) evictSegment(idx, id, snap);
      } catch (err) {
        // Retention may have dropped the segment meanwhile; anything else is worth a line.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.onError(err);
      } finally {
        frozen?.release();
        this.pending--;
      }
    });
  }

  /** Sidecars copied from the index whose encoding has not ended yet (for tests and diagnostics). */
  get unmadeCount(): number {
    return this.unmade;
  }

  /** Whether a sidecar asked for is not written (or given up) yet. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once every sidecar asked for so far is written (or given up). */
  idle(): Promise<void> {
    return this.tail;
  }
}
