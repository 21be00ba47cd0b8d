// What goes into a segment's index sidecar (sidecar.ts, format in sidecar-format.ts),
// made two ways that give the same sidecar:
// - from the history's own index, at the moment the log moves past the segment
//   (snapshotSidecar): nothing of a later segment exists yet, so the deliveries based in
//   the segment and the events whose latest record is there are, in memory, exactly what
//   a scan of that file alone would make of them. Only the records the file holds about
//   deliveries of older segments are not in memory as records: they are picked out of
//   the file afterwards (foreignRecords), reading the delivery id at the head of each
//   attempt and patch line and parsing only those lines that are not about the
//   segment's own deliveries. A delivery burst does not pay a parse of every line;
// - by scanning the segment with the start-up loader (sidecar.ts writeSidecar), for a
//   segment that was read in full at start-up (its sidecar missing or damaged).
import type { HistoryIndex } from './index-state.js';
import { aboutOtherDelivery, type ScannedRecord } from './records.js';
import { scanSegment, type Segment } from './segments.js';
import type { SidecarData, SidecarHeader } from './sidecar-format.js';
import { freezeSidecar, packSteps, type FrozenSidecar, type Known, type PackedSidecar } from './sidecar-frozen.js';
import { runNow } from './steps.js';
import type { NotedRecords } from './known-foreign.js';

export type { PackedSidecar };

/** The delivery a record is about, for those that only touch a delivery already known. */
export function touchedDelivery(rec: ScannedRecord): string | undefined {
  if ('deliveryId' in rec) return rec.deliveryId;
  return rec.kind === 'd' && !rec.base ? rec.v.id : undefined;
}

/**
 * The sidecar of the deliveries at slots `slots` and the events numbered `events` of
 * `idx`, all based in one segment, made at once (sidecar-frozen.ts: the same bytes as
 * made in slices).
 */
export function sidecarOf(idx: HistoryIndex, slots: number[], events: number[], h: Known): PackedSidecar {
  return runNow(packSteps(idx, freezeSidecar(idx, Infinity, slots, events, h)));
}

/** The columns of a sidecar made from an index, decoded again (as read from its file). */
export function unpacked(s: PackedSidecar): SidecarData {
  const data = s.packed.data(s.header);
  if (typeof data === 'string') throw new Error(`history: a sidecar just made does not decode: ${data}`);
  return data;
}

/**
 * What the sidecar of `seg` needs of the index, copied as the log moves past it (before
 * anything is recorded in the next segment): packSteps makes the sidecar of it later; its
 * `foreign` records are still to be read from the file (foreignRecords).
 */
export function freezeSegment(idx: HistoryIndex, seg: Segment): FrozenSidecar {
  const evNums = idx.ev.inSegment(seg.id);
  let nextEventSeq = 1;
  for (const i of evNums) nextEventSeq = Math.max(nextEventSeq, idx.ev.seq[i] + 1);
  const h = { segBytes: seg.size, created: seg.created, nextDeliverySeq: NaN, nextEventSeq, foreign: [] };
  return freezeSidecar(idx, seg.id, idx.deliveriesIn(seg.id), evNums, h);
}

/** freezeSegment and packSteps at once. */
export function snapshotSidecar(idx: HistoryIndex, seg: Segment): PackedSidecar {
  return runNow(packSteps(idx, freezeSegment(idx, seg)));
}

/**
 * The records of the segment file at `path` about deliveries other than `own`, in file
 * order, as the start-up scan reads them; undefined if the file is damaged or is not
 * `bytes` long (it never gets a sidecar then). `known`: records of some of those lines
 * noted when they were appended (known-foreign.ts), in file order: those lines are not parsed.
 */
export async function foreignRecords(
  path: string,
  own: { has(id: string): boolean },
  bytes: number,
  known?: NotedRecords,
): Promise<SidecarHeader['foreign'] | undefined> {
  const foreign: SidecarHeader['foreign'] = [];
  let k = 0;
  let mismatch = false;
  const scanned = await scanSegment(
    path,
    (rec, off, len) => {
      const id = touchedDelivery(rec);
      if (id !== undefined && !own.has(id)) foreign.push([rec, off, len]);
    },
    (buf, start, end, off) => {
      if (known && k < known.length && known.off[k] === off) {
        mismatch ||= known.len[k] !== end - start;
        foreign.push(known.record(k++));
        return false;
      }
      return aboutOtherDelivery(buf, start, end, own);
    },
  );
  if (mismatch || k !== (known?.length ?? 0)) return undefined; // not the lines the log appended: scanned at the next start
  return scanned.skipped > 0 || scanned.validLength !== scanned.fileSize || scanned.fileSize !== bytes ? undefined : foreign;
}
