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
import { grown, msIso, nextCapacity } from './columns.js';
import { STATUSES } from './delivery-row.js';
import type { DeliveryTable } from './delivery-table.js';
import type { HistoryIndex } from './index-state.js';
import type { ScannedRecord } from './records.js';
import type { Loc, Segment } from './segments.js';
import { CHUNK_ROWS, keepShape } from './kept-shapes.js';

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

  /**
   * The noted lines of `seg` (closing now) that its rows still describe, with what their
   * records need captured in columns (no object per record: the rotation does not wait on
   * making ~25,000 of them; foreignRecords makes each as its scan reaches the line).
   * Forgets every note.
   */
  take(idx: HistoryIndex, seg: Segment): NotedRecords {
    const { d, pool } = idx;
    // Loops a chunk at a time, each a call (kept-shapes.ts): their code stays compiled from one close to the next.
    const keep: number[] = [];
    for (let from = 0; from < this.n; from += CHUNK_ROWS) this.keepIn(d, pool, seg.id, from, Math.min(this.n, from + CHUNK_ROWS), keep);
    const slots: number[] = [];
    for (let from = 0; from < keep.length; from += CHUNK_ROWS) this.slotsIn(keep, from, Math.min(keep.length, from + CHUNK_ROWS), slots);
    const noted = new NotedRecords(keep.length, d.ids.rowsOf(slots));
    for (let from = 0; from < keep.length; from += CHUNK_ROWS)
      this.captureIn(noted, d, keep, slots, from, Math.min(keep.length, from + CHUNK_ROWS));
    this.clear();
    return noted;
  }

  /** Appends to `keep` the notes among [from, to) whose lines (in segment `segId`) are still their deliveries' last change, the rows of the usual shape. */
  private keepIn(d: DeliveryTable, pool: HistoryIndex['pool'], segId: number, from: number, to: number, keep: number[]): void {
    for (let k = from; k < to; k++) {
      const s = this.slot[k];
      if (d.isLive(s) && !this.touched.has(s) && d.isUsual(s) && pool.isAt(d.attemptTail(s), segId, this.off[k])) keep.push(k);
    }
  }

  /** Appends to `slots` the slots of notes keep[from, to). */
  private slotsIn(keep: readonly number[], from: number, to: number, slots: number[]): void {
    for (let j = from; j < to; j++) slots.push(this.slot[keep[j]]);
  }

  /** Captures records [from, to) of `noted` (notes keep[j], at slots[j]). */
  private captureIn(
    noted: NotedRecords,
    d: DeliveryTable,
    keep: readonly number[],
    slots: readonly number[],
    from: number,
    to: number,
  ): void {
    for (let j = from; j < to; j++) noted.capture(j, d, slots[j], this.off[keep[j]], this.len[keep[j]], this.bits[keep[j]]);
  }

  clear(): void {
    this.n = 0;
    this.touched.clear();
  }
}

/** SUMMARY_KEYS indexes whose values NotedRecords keeps as numbers: status, attempts, last attempt, code, duration, next. */
const NUMERIC = (1 << 7) | (1 << 8) | (1 << 10) | (1 << 11) | (1 << 13) | (1 << 14);
const ERROR_FIELD = 1 << 12;

/**
 * The records of noted lines (KnownForeign.take), in file order: their offsets, lengths,
 * the changed fields' values as the rows held them at the rotation, made into records.ts
 * scanLine's records on demand (record(j)): the same record the scan makes of the line.
 */
export class NotedRecords {
  readonly off: Float64Array;
  readonly len: Int32Array;
  private readonly fields: Int32Array;
  /** Per record: status index, attempts, last attempt (ms), code, duration, next (NaN: null). */
  private readonly nums: Float64Array;
  /** Records with a changed field not among the numbers (an error, an id, a URL…): every changed field's value. */
  private readonly values = new Map<number, unknown[]>();
  private readonly idAt: Float64Array;

  constructor(
    readonly length: number,
    private readonly ids: { bytes: Buffer; len: Int32Array; wide: [number, string][] },
  ) {
    this.off = new Float64Array(length);
    this.len = new Int32Array(length);
    this.fields = new Int32Array(length);
    this.nums = new Float64Array(length * 6);
    this.idAt = new Float64Array(length);
    for (let j = 0, at = 0; j < length; j++) {
      this.idAt[j] = at;
      if (ids.len[j] > 0) at += ids.len[j];
    }
  }

  capture(j: number, d: DeliveryTable, s: number, off: number, len: number, bits: number): void {
    this.off[j] = off;
    this.len[j] = len;
    const fields = (bits & 0xffff) | (bits >>> 16);
    this.fields[j] = fields;
    const k = d.cold.k;
    const r = d.coldRow(s);
    const at = j * 6;
    const { nums } = this;
    nums[at] = d.c.status[s];
    nums[at + 1] = k.attempts[r];
    nums[at + 2] = k.lastAt[r];
    nums[at + 3] = k.code[r];
    nums[at + 4] = k.dur[r];
    nums[at + 5] = k.next[r];
    if ((fields & ~NUMERIC) === 0 || ((fields & ~NUMERIC) === ERROR_FIELD && k.err[r] < 0)) return;
    const values: unknown[] = [];
    for (let i = 0; i < SUMMARY_KEYS.length; i++) if (fields & (1 << i)) values.push(d.rows.field(s, i));
    this.values.set(j, values);
  }

  /** The record of noted line `j`, as [record, offset, length]. */
  record(j: number): ForeignRecord {
    const n = this.ids.len[j];
    const deliveryId = n >= 0 ? this.ids.bytes.toString('latin1', this.idAt[j], this.idAt[j] + n) : this.wideId(j);
    const rec: ScannedRecord = this.fields[j] === 0 ? { kind: 'a', deliveryId } : { kind: 'a', deliveryId, patch: this.patch(j) };
    return [rec, this.off[j], this.len[j]];
  }

  private patch(j: number): Record<string, unknown> {
    const fields = this.fields[j];
    const patch: Record<string, unknown> = {};
    const values = this.values.get(j);
    if (values) {
      let v = 0;
      for (let i = 0; i < SUMMARY_KEYS.length; i++) if (fields & (1 << i)) patch[i] = values[v++];
      return patch;
    }
    const at = j * 6;
    const num = (x: number): number | null => (Number.isNaN(x) ? null : x);
    if (fields & (1 << 7)) patch[7] = STATUSES[this.nums[at]];
    if (fields & (1 << 8)) patch[8] = this.nums[at + 1];
    if (fields & (1 << 10)) patch[10] = msIso(this.nums[at + 2]);
    if (fields & (1 << 11)) patch[11] = num(this.nums[at + 3]);
    if (fields & ERROR_FIELD) patch[12] = null;
    if (fields & (1 << 13)) patch[13] = num(this.nums[at + 4]);
    if (fields & (1 << 14)) patch[14] = num(this.nums[at + 5]);
    return patch;
  }

  private wideId(j: number): string {
    return this.ids.wide.find(([k]) => k === j)?.[1] as string;
  }
}

keepShape(new NotedRecords(0, { bytes: Buffer.alloc(0), len: new Int32Array(0), wide: [] }));
