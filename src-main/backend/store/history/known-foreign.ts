// Attempt lines about deliveries of older segments that the log can describe without
// reading them back. When a segment closes, its sidecar keeps the records the segment
// holds about deliveries based in older segments (sidecar-build.ts foreignRecords), and
// in a burst those are most of its lines (the engine's attempts run behind the PUTs that
// made their deliveries): each was read back from the file and parsed whole (its attempt
// decoded with its headers) only to learn the change it carries, ~1.4 KB of garbage and a
// few µs a delivery. An attempt line written with its change as bits (attempt-bytes.ts
// changeBits) is noted here (offset, length, slot, bits: 20 bytes, no object); when the
// segment closes, one whose delivery's row has not changed since (its last attempt is
// that line, no other change was recorded for it in the segment, the row of the usual
// shape) gives its record from the row: the same record the scan would make, field for
// field. Any other line is read and parsed as before.
import { SUMMARY_KEYS } from '../history-types.js';
import { grown, nextCapacity } from './columns.js';
import type { DeliveryTable } from './delivery-table.js';
import type { HistoryIndex } from './index-state.js';
import type { ScannedRecord } from './records.js';
import type { Loc, Segment } from './segments.js';

/** A record as a sidecar keeps it: the record, its line's offset and length (no newline). */
export type ForeignRecord = [ScannedRecord, number, number];

export class KnownForeign {
  private off = new Float64Array(0);
  private len = new Int32Array(0);
  private slot = new Int32Array(0);
  private bits = new Int32Array(0);
  private n = 0;
  /** Deliveries whose summary changed in the current segment other than by a noted line. */
  private readonly touched = new Set<number>();

  /**
   * A change of the delivery at `slot` (based in segment `baseSeg`) was recorded: the
   * attempt line at `loc` with `bits` (-1: written another way; no loc: no attempt).
   */
  changed(slot: number, baseSeg: number, loc: Loc | undefined, bits: number): void {
    if (!loc || bits < 0) return void this.touched.add(slot);
    if (baseSeg === loc.seg.id) return; // about a delivery of its own segment: no foreign record
    if (this.n === this.off.length) {
      const cap = nextCapacity(this.n);
      [this.off, this.len, this.slot, this.bits] = [
        grown(this.off, cap),
        grown(this.len, cap),
        grown(this.slot, cap),
        grown(this.bits, cap),
      ];
    }
    this.off[this.n] = loc.off;
    this.len[this.n] = loc.len;
    this.slot[this.n] = slot;
    this.bits[this.n++] = bits;
  }

  /** The records of the noted lines of `seg` (closing now) that its rows still describe, in file order; forgets every note. */
  take(idx: HistoryIndex, seg: Segment): ForeignRecord[] {
    const out: ForeignRecord[] = [];
    const { d, pool } = idx;
    for (let k = 0; k < this.n; k++) {
      const s = this.slot[k];
      if (!d.isLive(s) || this.touched.has(s) || !d.isUsual(s) || !pool.isAt(d.attemptTail(s), seg.id, this.off[k])) continue;
      out.push([recordOf(d, s, this.bits[k]), this.off[k], this.len[k]]);
    }
    this.clear();
    return out;
  }

  clear(): void {
    this.n = 0;
    this.touched.clear();
  }
}

/**
 * records.ts scanLine's record of an attempt line written with `bits` for the delivery at
 * `s`, whose row still holds the summary that line made: its patch has every field the
 * line changes (taken from the attempt, "m", or written, "p") with its value now.
 */
function recordOf(d: DeliveryTable, s: number, bits: number): ScannedRecord {
  const deliveryId = d.idOf(s);
  const fields = (bits & 0xffff) | (bits >>> 16);
  if (fields === 0) return { kind: 'a', deliveryId };
  const patch: Record<string, unknown> = {};
  for (let i = 0; i < SUMMARY_KEYS.length; i++) if (fields & (1 << i)) patch[i] = d.rows.field(s, i);
  return { kind: 'a', deliveryId, patch };
}
