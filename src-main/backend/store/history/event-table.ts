// The event summaries of the history index, in columns indexed by the event id's number
// in the event-id interner (shared with the deliveries, which refer to their event by
// it). Same rule as delivery-table.ts: read back exactly as recorded, or kept whole.
import type { EventType } from '@shared/api-types.js';
import type { EventSummary } from '../history-types.js';
import { grown, isoMs, keyShape, msIso, nextCapacity, reshaped } from './columns.js';
import type { IdInterner } from './id-interner.js';
import type { Interner } from './interner.js';
import type { Loc, Segment } from './segments.js';

/** An event summary's fields in their usual order (also the order of its positional form on disk, compact.ts). */
export const EVENT_KEYS = ['id', 'company_id', 'type', 'timestamp', 'document_id', 'subscription_id'] as const;
const KEYS = EVENT_KEYS;
const TAIL = ['imported', 'origin'] as const;
const IMPORTED = 1;
const CHECK = 2;

function fits(v: EventSummary): boolean {
  return (
    typeof v.id === 'string' &&
    typeof v.company_id === 'string' &&
    typeof v.type === 'string' &&
    (v.document_id === null || typeof v.document_id === 'string') &&
    (v.subscription_id === null || typeof v.subscription_id === 'string') &&
    (v.imported === undefined || v.imported === true) &&
    (v.origin === undefined || v.origin === 'check')
  );
}

/** Compact event columns as a sidecar holds them: row k is the event numbered num[k] in the sidecar's own interner. */
export interface EventRows {
  num: Int32Array;
  seq: Float64Array;
  ts: Float64Array;
  off: Float64Array;
  len: Int32Array;
  company: Int32Array;
  doc: Int32Array;
  type: Int32Array;
  sub: Int32Array;
  shape: Int32Array;
  flags: Uint8Array;
}

/** Columns of numbers in the string interner (-1: null). */
export const EVENT_STRING_COLUMNS = ['company', 'doc', 'type', 'sub', 'shape'] as const;

type RowLike = Pick<EventRows, 'ts' | 'company' | 'doc' | 'type' | 'sub' | 'shape' | 'flags'>;

/** Row k of compact event columns as a summary; `str` gives the strings behind the numbers. */
export function decodeEvent(c: RowLike, k: number, id: string, str: (i: number) => string): EventSummary {
  const v: EventSummary = {
    id,
    company_id: str(c.company[k]),
    type: str(c.type[k]) as EventType,
    timestamp: msIso(c.ts[k]) as string,
    document_id: c.doc[k] < 0 ? null : str(c.doc[k]),
    subscription_id: c.sub[k] < 0 ? null : str(c.sub[k]),
  };
  if (c.flags[k] & IMPORTED) v.imported = true;
  if (c.flags[k] & CHECK) v.origin = 'check';
  return c.shape[k] < 0 ? v : reshaped(v, str(c.shape[k]));
}

export class EventTable {
  private readonly odd = new Map<number, EventSummary>();
  private count = 0;
  private present = new Uint8Array(0);
  seq = new Float64Array(0);
  private ts = new Float64Array(0);
  private locOff = new Float64Array(0);
  company = new Int32Array(0);
  doc = new Int32Array(0);
  /** The id of the segment holding the event's latest record. */
  locSeg = new Int32Array(0);
  private locLen = new Int32Array(0);
  private type = new Int32Array(0);
  private sub = new Int32Array(0);
  /** The key order when not the usual one (a string: see keyShape). */
  private shape = new Int32Array(0);
  private flags = new Uint8Array(0);

  constructor(
    private readonly strs: Interner,
    private readonly eventIds: IdInterner,
  ) {}

  get size(): number {
    return this.count;
  }

  /** The event's number if it is recorded. */
  find(id: string): number | undefined {
    const i = this.eventIds.find(id);
    return i !== undefined && i < this.present.length && this.present[i] === 1 ? i : undefined;
  }

  /** Records a new event (not yet present); returns its number. */
  add(seq: number, v: EventSummary, loc: Loc): number {
    const i = this.eventIds.add(v.id);
    this.ensure(i);
    this.present[i] = 1;
    this.count++;
    this.seq[i] = seq;
    this.company[i] = this.doc[i] = this.type[i] = this.sub[i] = this.shape[i] = -1;
    this.write(i, v, loc);
    return i;
  }

  /** Replaces a present event's summary and location. */
  write(i: number, v: EventSummary, loc: Loc): void {
    const { strs } = this;
    this.company[i] = strs.swap(this.company[i], String(v.company_id));
    this.doc[i] = this.swapOrNull(this.doc[i], v.document_id === null ? null : String(v.document_id));
    this.setLoc(i, loc);
    const ts = isoMs(v.timestamp);
    const shape = keyShape(v, KEYS, TAIL);
    if (shape === undefined || !fits(v) || Number.isNaN(ts)) {
      this.type[i] = this.swapOrNull(this.type[i], null);
      this.sub[i] = this.swapOrNull(this.sub[i], null);
      this.shape[i] = this.swapOrNull(this.shape[i], null);
      this.odd.set(i, { ...v });
      return;
    }
    this.odd.delete(i);
    this.type[i] = strs.swap(this.type[i], v.type);
    this.sub[i] = this.swapOrNull(this.sub[i], v.subscription_id);
    this.shape[i] = this.swapOrNull(this.shape[i], shape);
    this.ts[i] = ts;
    this.flags[i] = (v.imported ? IMPORTED : 0) | (v.origin === 'check' ? CHECK : 0);
  }

  setLoc(i: number, loc: Loc): void {
    this.locSeg[i] = loc.seg.id;
    this.locOff[i] = loc.off;
    this.locLen[i] = loc.len;
  }

  loc(i: number, segs: ReadonlyMap<number, Segment>): Loc | undefined {
    const seg = segs.get(this.locSeg[i]);
    return seg ? { seg, off: this.locOff[i], len: this.locLen[i] } : undefined;
  }

  read(i: number): EventSummary {
    const o = this.odd.get(i);
    if (o) return { ...o };
    return decodeEvent(this.rowLike(), i, this.eventIds.get(i), (n) => this.strs.get(n));
  }

  /** The summary kept whole, if the event's is not in the compact form. */
  oddOf(i: number): EventSummary | undefined {
    return this.odd.get(i);
  }

  /** The sidecar's columns for the compact present events `nums`. */
  exportRows(nums: number[]): EventRows {
    const pick = <T extends Float64Array | Int32Array | Uint8Array>(col: T): T => {
      const out = new (col.constructor as new (n: number) => T)(nums.length);
      nums.forEach((i, k) => (out[k] = col[i]));
      return out;
    };
    const c = this.rowLike();
    return {
      num: Int32Array.from(nums),
      seq: pick(this.seq),
      ts: pick(c.ts),
      off: pick(this.locOff),
      len: pick(this.locLen),
      company: pick(c.company),
      doc: pick(c.doc),
      type: pick(c.type),
      sub: pick(c.sub),
      shape: pick(c.shape),
      flags: pick(c.flags),
    };
  }

  /**
   * The sidecar's bulk path: event number `g` (its id interned by the caller; this
   * takes a reference for its presence) from row k, strings mapped through `strMap`.
   */
  importRow(g: number, src: EventRows, k: number, strMap: Int32Array, segId: number): void {
    this.eventIds.retain(g);
    this.ensure(g);
    this.present[g] = 1;
    this.count++;
    this.seq[g] = src.seq[k];
    this.ts[g] = src.ts[k];
    this.flags[g] = src.flags[k];
    this.locSeg[g] = segId;
    this.locOff[g] = src.off[k];
    this.locLen[g] = src.len[k];
    const c = this.rowLike();
    for (const name of EVENT_STRING_COLUMNS) {
      const l = src[name][k];
      const n = l < 0 ? -1 : strMap[l];
      if (n >= 0) this.strs.retain(n);
      c[name][g] = n;
    }
  }

  private rowLike(): RowLike {
    return { ts: this.ts, company: this.company, doc: this.doc, type: this.type, sub: this.sub, shape: this.shape, flags: this.flags };
  }

  remove(i: number): void {
    if (this.present[i] !== 1) return;
    this.present[i] = 0;
    this.count--;
    this.odd.delete(i);
    for (const col of [this.company, this.doc, this.type, this.sub, this.shape]) {
      this.swapOrNull(col[i], null);
      col[i] = -1;
    }
    this.eventIds.release(i);
  }

  /** Whether a kept delivery refers to the event (retention carries it then). */
  referenced(i: number): boolean {
    return this.eventIds.refCount(i) > (this.present[i] === 1 ? 1 : 0);
  }

  /** Every present event whose latest record is in segment `segId`. */
  inSegment(segId: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.present.length; i++) if (this.present[i] === 1 && this.locSeg[i] === segId) out.push(i);
    return out;
  }

  /** Every present event's number. */
  all(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.present.length; i++) if (this.present[i] === 1) out.push(i);
    return out;
  }

  /** Makes room for event number `i` (numbers come from the shared interner, so any). */
  ensure(i: number): void {
    if (i < this.present.length) return;
    const cap = Math.max(i + 1, nextCapacity(this.present.length));
    this.present = grown(this.present, cap);
    this.seq = grown(this.seq, cap);
    this.ts = grown(this.ts, cap);
    this.locOff = grown(this.locOff, cap);
    this.company = grown(this.company, cap);
    this.doc = grown(this.doc, cap);
    this.locSeg = grown(this.locSeg, cap);
    this.locLen = grown(this.locLen, cap);
    this.type = grown(this.type, cap);
    this.sub = grown(this.sub, cap);
    this.shape = grown(this.shape, cap);
    this.flags = grown(this.flags, cap);
  }

  private swapOrNull(old: number, value: string | null): number {
    if (value !== null) return this.strs.swap(old, value);
    if (old >= 0) this.strs.release(old);
    return -1;
  }
}
