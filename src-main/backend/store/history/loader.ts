// Rebuilds the in-memory index from the segment files at open (rules in history-log.ts):
// a base record starts a delivery (a carried base also replaces its attempts with the
// ones it embeds); a later upsert or patch of an unknown delivery (its base was dropped by
// retention) is ignored; attempts attach to a known delivery, and are ignored otherwise.
// A closed segment with a usable index sidecar (sidecar.ts) is loaded from it instead of
// scanned; the open one (the last) is always scanned.
import { statSync } from 'node:fs';
import { readdir, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScannedRecord } from './records.js';
import { applyPatch } from './compact.js';
import { newSegment, scanSegment, scanSegmentSync, segmentIdOf, type Loc, type ScanResult, type Segment } from './segments.js';
import type { HistoryIndex } from './index-state.js';
import { explainFsError } from '../store-errors.js';
import { applySidecar, readSidecar, readSidecarSync, sidecarRowsOf } from './sidecar.js';
import type { SidecarData } from './sidecar-format.js';
import { coldFromSegment } from './cold-rescan.js';
import { plainArray, systemArray, type ArrayMaker } from './columns.js';

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
  const segments = ids.map((id) => newSegment(dir, id, false));
  const out = new Loaded();
  const steps = loadSteps(segments, idx, loader, out);
  for (let r = steps.next(); !r.done;) r = steps.next(await doAsync(r.value));
  // Cut a torn tail off the segment that will be appended to; older ones are only read.
  const last = out.lastScan;
  if (last && last.validLength < last.fileSize) await truncate(segments[segments.length - 1].path, last.validLength);
  idx.buildLists();
  idx.cold.clear(); // the sidecars applied last (applySidecar), kept for the records of the next ones
  return { segments, nextDeliverySeq: loader.nextDeliverySeq, nextEventSeq: loader.nextEventSeq, ...out.result() };
}

/**
 * Fills `idx` (made with `loading`) again from `segments`, the log's own, synchronously
 * and as loadSegments would (history-log.ts: the index is rebuilt on demand after the
 * idle collection let it go). Their sizes and counts stay the log's; nothing is cut or
 * removed. `rows`: deliveries to make room for at once.
 */
export function reloadSegments(segments: Segment[], idx: HistoryIndex, rows: number): void {
  const kept = segments.map(({ size, written, created }) => ({ size, written, created }));
  const loader = new Loader(idx);
  loader.arrays = systemArray;
  idx.cold.rescan = coldFromSegment;
  if (rows > 0) idx.d.reserve(Math.ceil(rows * 1.15));
  const steps = loadSteps(segments, idx, loader, new Loaded());
  try {
    for (let r = steps.next(); !r.done;) r = steps.next(doSync(r.value));
  } finally {
    segments.forEach((seg, i) => Object.assign(seg, kept[i])); // the log's, even when a read failed
  }
  idx.buildLists();
  idx.cold.clear();
}

/** What loading asks for: a file's size, a closed segment's sidecar, or a scan of a segment. */
type LoadStep =
  | { kind: 'size'; seg: Segment }
  | { kind: 'sidecar'; seg: Segment; size: number }
  | { kind: 'scan'; seg: Segment; onRecord: (rec: ScannedRecord, off: number, len: number) => void };

async function doAsync(step: LoadStep): Promise<unknown> {
  try {
    if (step.kind === 'sidecar') return await readSidecar(step.seg.path, step.size);
    return step.kind === 'size' ? (await stat(step.seg.path)).size : await scanSegment(step.seg.path, step.onRecord);
  } catch (err) {
    throw explainFsError(step.seg.path, err, 'a delivery history segment');
  }
}

function doSync(step: LoadStep): unknown {
  try {
    if (step.kind === 'sidecar') return readSidecarSync(step.seg.path, step.size);
    return step.kind === 'size' ? statSync(step.seg.path).size : scanSegmentSync(step.seg.path, step.onRecord);
  } catch (err) {
    throw explainFsError(step.seg.path, err, 'a delivery history segment');
  }
}

/** What loading met on the way, for the start-up report. */
class Loaded {
  skippedLines = 0;
  readonly warnings: string[] = [];
  readonly rescanned: Segment[] = [];
  readonly missing: Segment[] = [];
  lastScan: ScanResult | undefined;

  result(): Pick<LoadResult, 'skippedLines' | 'warnings' | 'rescanned'> {
    const { missing, warnings } = this;
    if (missing.length > 0)
      warnings.push(
        `${missing.length} delivery history file${missing.length === 1 ? ' had' : 's had'} no index beside ${missing.length === 1 ? 'it' : 'them'} ` +
          `(written by an earlier version, or the service stopped before writing it): read in full instead (nothing is lost); the index is written now, so the next start is quick.`,
      );
    return { skippedLines: this.skippedLines, warnings, rescanned: this.rescanned };
  }
}

/** Loads each segment in turn (a closed one from its sidecar when it can be), asking its driver for each read. */
function* loadSteps(segments: Segment[], idx: HistoryIndex, loader: Loader, out: Loaded): Generator<LoadStep, void, unknown> {
  for (const [i, seg] of segments.entries()) {
    idx.segs.set(seg.id, seg);
    if (seg.isNew) continue; // a rebuild within a rotation: the segment just begun has no file yet, nothing to read
    const closed = i < segments.length - 1;
    if (closed) {
      const size = (yield { kind: 'size', seg }) as number;
      const data = (yield { kind: 'sidecar', seg, size }) as SidecarData | string;
      if (typeof data !== 'string') {
        applySidecar(data, seg, idx, loader);
        seg.size = seg.written = size;
        continue;
      }
      if (data === 'missing') out.missing.push(seg);
      else
        out.warnings.push(
          `The index beside the delivery history file ${seg.path} could not be used (${data}): the file was read in full instead (nothing is lost), and its index is written again.`,
        );
      out.rescanned.push(seg);
    }
    const onRecord = (rec: ScannedRecord, off: number, len: number): void => loader.apply(seg, rec, { seg, off, len });
    const scanned = (yield { kind: 'scan', seg, onRecord }) as ScanResult;
    seg.size = seg.written = scanned.validLength;
    out.skippedLines += scanned.skipped;
    out.lastScan = scanned;
    const torn = closed && scanned.validLength < scanned.fileSize;
    if (scanned.skipped > 0 || torn) {
      // A damaged segment never gets a sidecar: its damage is reported at each start.
      if (out.missing.includes(seg)) out.missing.splice(out.missing.indexOf(seg), 1);
      out.warnings.push(
        `The delivery history file ${seg.path} is damaged: ${scanned.skipped} unreadable line${scanned.skipped === 1 ? '' : 's'}` +
          `${torn ? ` and ${scanned.fileSize - scanned.validLength} bytes cut off at its end` : ''}; the delivery-log entries on them are lost, the rest was loaded.`,
      );
    }
  }
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
  /** How the arrays that live only while loading are made (a rebuild: outside malloc, sidecar.ts readSidecarSync says why). */
  arrays: ArrayMaker = plainArray;

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
