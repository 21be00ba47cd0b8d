// Rebuilds the in-memory index from the segment files at open (rules in history-log.ts):
// a base record starts a delivery (a carried base also replaces its attempts with the
// ones it embeds); a later upsert or patch of an unknown delivery (its base was dropped by
// retention) is ignored; attempts attach to a known delivery, and are ignored otherwise.
// A closed segment with a usable index sidecar (sidecar.ts) is loaded from it instead of
// scanned; the open one (the last) is always scanned.
import { readdir, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScannedRecord } from './records.js';
import { applyPatch } from './compact.js';
import { newSegment, scanSegment, segmentIdOf, type Loc, type Segment } from './segments.js';
import type { HistoryIndex } from './index-state.js';
import { explainFsError } from '../store-errors.js';
import { applySidecar, readSidecar, sidecarRowsOf } from './sidecar.js';
import { coldFromSegment } from './cold-rescan.js';

export interface LoadResult {
  segments: Segment[];
  nextDeliverySeq: number;
  nextEventSeq: number;
  skippedLines: number;
  /** Damage met, one sentence per segment, for the start-up report. */
  warnings: string[];
  /** Closed segments that were scanned for want of a usable sidecar: theirs is to be written. */
  rescanned: Segment[];
}

const SIDECAR_NAME = /^seg-(\d{6,})\.idx(\.tmp)?$/;

/** Fills `idx` (made with `loading`) from the segments in `dir`, then builds its lists. */
export async function loadSegments(dir: string, idx: HistoryIndex): Promise<LoadResult> {
  const names = await readdir(dir);
  const ids = names
    .map(segmentIdOf)
    .filter((id): id is number => id !== null)
    .sort((a, b) => a - b);
  await removeStraySidecars(dir, names, new Set(ids));
  const loader = new Loader(idx);
  idx.cold.rescan = coldFromSegment;
  // Room for every delivery of the sidecars at once (and some of the open segment's): no growing step by step.
  const rows = await sidecarRowsOf(ids.slice(0, -1).map((id) => newSegment(dir, id, false).path));
  if (rows > 0) idx.d.reserve(Math.ceil(rows * 1.15));
  const segments: Segment[] = [];
  let skippedLines = 0;
  const warnings: string[] = [];
  const rescanned: Segment[] = [];
  const missing: Segment[] = [];
  for (const [i, id] of ids.entries()) {
    const seg = newSegment(dir, id, false);
    idx.segs.set(seg.id, seg);
    if (i < ids.length - 1) {
      const used = await fromSidecar(seg, idx, loader);
      if (used === true) {
        segments.push(seg);
        continue;
      }
      if (used === 'missing') missing.push(seg);
      else
        warnings.push(
          `The index beside the delivery history file ${seg.path} could not be used (${used}): the file was read in full instead (nothing is lost), and its index is written again.`,
        );
      rescanned.push(seg);
    }
    let scanned;
    try {
      scanned = await scanSegment(seg.path, (rec, off, len) => loader.apply(seg, rec, { seg, off, len }));
    } catch (err) {
      throw explainFsError(seg.path, err, 'a delivery history segment');
    }
    seg.size = seg.written = scanned.validLength;
    skippedLines += scanned.skipped;
    const torn = i < ids.length - 1 && scanned.validLength < scanned.fileSize;
    if (scanned.skipped > 0 || torn) {
      // A damaged segment never gets a sidecar: its damage is reported at each start.
      if (missing.includes(seg)) missing.splice(missing.indexOf(seg), 1);
      warnings.push(
        `The delivery history file ${seg.path} is damaged: ${scanned.skipped} unreadable line${scanned.skipped === 1 ? '' : 's'}` +
          `${torn ? ` and ${scanned.fileSize - scanned.validLength} bytes cut off at its end` : ''}; the delivery-log entries on them are lost, the rest was loaded.`,
      );
    }
    // Cut a torn tail off the segment that will be appended to; older ones are only read.
    if (i === ids.length - 1 && scanned.validLength < scanned.fileSize) await truncate(seg.path, scanned.validLength);
    segments.push(seg);
  }
  idx.buildLists();
  idx.cold.clear(); // the sidecars applied last (applySidecar), kept for the records of the next ones
  if (missing.length > 0)
    warnings.push(
      `${missing.length} delivery history file${missing.length === 1 ? ' had' : 's had'} no index beside ${missing.length === 1 ? 'it' : 'them'} ` +
        `(written by an earlier version, or the service stopped before writing it): read in full instead (nothing is lost); the index is written now, so the next start is quick.`,
    );
  return { segments, nextDeliverySeq: loader.nextDeliverySeq, nextEventSeq: loader.nextEventSeq, skippedLines, warnings, rescanned };
}

/** Loads a closed segment from its sidecar: true, or why it could not ('missing' when there is none). */
async function fromSidecar(seg: Segment, idx: HistoryIndex, loader: Loader): Promise<true | string> {
  let size: number;
  try {
    size = (await stat(seg.path)).size;
  } catch (err) {
    throw explainFsError(seg.path, err, 'a delivery history segment');
  }
  const data = await readSidecar(seg.path, size);
  if (typeof data === 'string') return data;
  applySidecar(data, seg, idx, loader);
  seg.size = seg.written = size;
  return true;
}

/** Sidecars of segments that are gone (retention), and half-written ones. */
async function removeStraySidecars(dir: string, names: string[], segments: Set<number>): Promise<void> {
  for (const name of names) {
    const m = SIDECAR_NAME.exec(name);
    if (m && (m[2] !== undefined || !segments.has(Number(m[1])))) await unlink(join(dir, name)).catch(() => undefined);
  }
}

export class Loader {
  nextDeliverySeq = 1;
  nextEventSeq = 1;

  constructor(private readonly idx: HistoryIndex) {}

  apply(seg: Segment, rec: ScannedRecord, loc: Loc): void {
    const { idx } = this;
    if (rec.kind === 'a') {
      const s = idx.d.slot(rec.deliveryId);
      if (s === undefined) return;
      idx.d.addAttempt(s, loc);
      if (rec.patch) idx.updateDelivery(s, applyPatch(idx.d.read(s), rec.patch));
    } else if (rec.kind === 'u') {
      const s = idx.d.slot(rec.deliveryId);
      if (s !== undefined) idx.updateDelivery(s, applyPatch(idx.d.read(s), rec.patch));
    } else if (rec.kind === 'e') {
      this.nextEventSeq = Math.max(this.nextEventSeq, rec.seq + 1);
      idx.putEvent(rec.seq, rec.v, loc);
    } else if (!rec.base) {
      const s = idx.d.slot(rec.v.id);
      if (s !== undefined) idx.updateDelivery(s, rec.v);
    } else {
      this.nextDeliverySeq = Math.max(this.nextDeliverySeq, rec.seq + 1);
      const attempts: Loc[] = [];
      for (let i = 0; i < (rec.carried ?? 0); i++) attempts.push({ ...loc, item: i });
      const s = idx.d.slot(rec.v.id);
      if (s !== undefined) idx.rebase(s, rec.v, seg, attempts);
      else idx.d.setAttempts(idx.addDelivery(rec.seq, rec.v, seg), attempts);
      if (rec.carried === undefined) seg.created++;
    }
  }
}
