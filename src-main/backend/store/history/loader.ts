// Rebuilds the in-memory index from the segment files at open (rules in history-log.ts):
// a base record starts a delivery (a carried base also replaces its attempts with the
// ones it embeds); a later upsert or patch of an unknown delivery (its base was dropped by
// retention) is ignored; attempts attach to a known delivery, and are ignored otherwise.
import { readdir, truncate } from 'node:fs/promises';
import type { ScannedRecord } from './records.js';
import { applyPatch } from './compact.js';
import { newSegment, scanSegment, segmentIdOf, type Loc, type Segment } from './segments.js';
import type { HistoryIndex } from './index-state.js';
import { explainFsError } from '../store-errors.js';

export interface LoadResult {
  segments: Segment[];
  nextDeliverySeq: number;
  nextEventSeq: number;
  skippedLines: number;
  /** Damage met, one sentence per segment, for the start-up report. */
  warnings: string[];
}

/** Fills `idx` (made with `loading`) from the segments in `dir`, then builds its lists. */
export async function loadSegments(dir: string, idx: HistoryIndex): Promise<LoadResult> {
  const ids = (await readdir(dir))
    .map(segmentIdOf)
    .filter((id): id is number => id !== null)
    .sort((a, b) => a - b);
  const loader = new Loader(idx);
  const segments: Segment[] = [];
  let skippedLines = 0;
  const warnings: string[] = [];
  for (const [i, id] of ids.entries()) {
    const seg = newSegment(dir, id, false);
    idx.segs.set(seg.id, seg);
    let scanned;
    try {
      scanned = await scanSegment(seg.path, (rec, off, len) => loader.apply(seg, rec, { seg, off, len }));
    } catch (err) {
      throw explainFsError(seg.path, err, 'a delivery history segment');
    }
    seg.size = seg.written = scanned.validLength;
    skippedLines += scanned.skipped;
    const torn = i < ids.length - 1 && scanned.validLength < scanned.fileSize;
    if (scanned.skipped > 0 || torn)
      warnings.push(
        `The delivery history file ${seg.path} is damaged: ${scanned.skipped} unreadable line${scanned.skipped === 1 ? '' : 's'}` +
          `${torn ? ` and ${scanned.fileSize - scanned.validLength} bytes cut off at its end` : ''}; the delivery-log entries on them are lost, the rest was loaded.`,
      );
    // Cut a torn tail off the segment that will be appended to; older ones are only read.
    if (i === ids.length - 1 && scanned.validLength < scanned.fileSize) await truncate(seg.path, scanned.validLength);
    segments.push(seg);
  }
  idx.buildLists();
  return { segments, nextDeliverySeq: loader.nextDeliverySeq, nextEventSeq: loader.nextEventSeq, skippedLines, warnings };
}

class Loader {
  nextDeliverySeq = 1;
  nextEventSeq = 1;

  constructor(private readonly idx: HistoryIndex) {}

  apply(seg: Segment, rec: ScannedRecord, loc: Loc): void {
    const { idx } = this;
    if (rec.kind === 'a') {
      const s = idx.d.slot(rec.deliveryId);
      if (s !== undefined) idx.d.addAttempt(s, loc);
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
