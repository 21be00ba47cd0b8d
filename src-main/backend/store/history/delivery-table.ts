// The delivery summaries of the history index, in columns (columns.ts): one slot per
// delivery, its strings interned (interner.ts), its times and numbers as float64s,
// its attempts' file locations in a chain of the LocPool. A summary is read back as
// the same object it was recorded as: the same keys in the same order with the same
// values. One that this form cannot give back exactly (keys of another order or kind,
// a time that is not a canonical ISO string: an imported record) is kept whole instead,
// its key fields still in the columns for the lists.
import type { DeliverySummary } from '../history-types.js';
import { grown, nextCapacity, type Column } from './columns.js';
import { ColdRows, NO_ROW, sidecarRowOf, type ColdSource } from './cold-rows.js';
import { evictRows } from './evict-rows.js';
import {
  decodeRow,
  hotColumns,
  shapeOf,
  numbers,
  NUMS,
  CHECK,
  IMPORTED,
  OTHER_STATUS,
  STATUSES,
  TUNNEL_OFFLINE,
  type RowColumns,
} from './delivery-row.js';
import type { IdInterner } from './id-interner.js';
import type { Interner } from './interner.js';
import type { LocPool } from './loc-pool.js';
import type { Loc } from './segments.js';
import { DeliveryIds } from './delivery-ids.js';
import type { IdBytes } from './id-table.js';
import { importRows } from './import-rows.js';
import { insertLike } from './insert-like.js';
import { RowCompare } from './row-compare.js';

/** The hot columns (delivery-row.ts) and, per slot, where its cold fields are (cold-rows.ts). */
const slotColumns = (cap: number) => ({ ...hotColumns(cap), cold: new Int32Array(cap) });

export class DeliveryTable {
  /** Ids by slot and slots by id (a closed delivery's bytes in its sidecar: delivery-ids.ts). */
  readonly ids: DeliveryIds = new DeliveryIds(this);
  private readonly freeSlots: number[] = [];
  private readonly odd = new Map<number, DeliverySummary>();
  private used = 0;
  /** The columns, one entry per slot (exported for the index sidecar, history/sidecar.ts). */
  c = slotColumns(0);
  /** The cold fields of the deliveries that keep theirs in memory (cold-rows.ts). */
  readonly cold: ColdRows;
  /** A closed segment's cold fields, read back from its sidecar (HistoryIndex gives it: cold-source.ts). */
  coldSource: (segId: number) => ColdSource = () => {
    throw new Error('history: no sidecar to read cold fields from');
  };

  /** Rows read and compared field by field, in place (row-compare.ts). */
  readonly rows: RowCompare;

  constructor(
    private readonly strs: Interner,
    private readonly eventIds: IdInterner,
    private readonly pool: LocPool,
  ) {
    this.cold = new ColdRows(strs);
    this.rows = new RowCompare(this, this.ids, strs, eventIds);
  }

  get size(): number {
    return this.ids.size;
  }

  /** One past the highest slot ever used (slots below it may be free). */
  get end(): number {
    return this.used;
  }

  /** The slot of an id given as Latin-1 bytes. */
  slotBytes(bytes: Uint8Array, from: number, n: number, h?: number): number | undefined {
    return this.ids.getBytes(bytes, from, n, h);
  }

  slot(id: string): number | undefined {
    return this.ids.get(id);
  }

  isLive(slot: number): boolean {
    return this.ids.has(slot);
  }

  idOf(slot: number): string {
    return this.ids.idOf(slot) as string;
  }

  insert(seq: number, v: DeliverySummary, segId: number): number {
    const s = this.allocSlot();
    this.c.seq[s] = seq;
    this.c.baseSeg[s] = segId;
    this.c.aHead[s] = -1;
    this.c.evt[s] = this.c.sub[s] = this.c.company[s] = this.c.doc[s] = -1;
    this.c.cold[s] = this.cold.alloc();
    this.ids.set(v.id, s);
    this.write(s, v);
    return s;
  }

  /** insert() of a summary with slot `from`'s values but for its id, subscription and url (insert-like.ts). */
  insertLike(seq: number, v: DeliverySummary, segId: number, from: number): number {
    if (this.c.cold[from] < 0 || !this.isUsual(from)) return this.insert(seq, v, segId);
    return insertLike(this, this.strs, this.eventIds, seq, v, segId, from);
  }

  /**
   * The cold row of slot `s`, its fields read back from its segment's sidecar first if
   * they are there (the row is then kept in memory until its segment's fields are given
   * up again: evict).
   */
  coldRow(s: number): number {
    const ref = this.c.cold[s];
    if (ref >= 0) return ref;
    if (ref === NO_ROW) return (this.c.cold[s] = this.cold.alloc());
    const r = this.cold.copyFrom(this.coldSource(this.c.baseSeg[s]), sidecarRowOf(ref));
    this.ids.back(s, r); // its id with it, before its cold entry changes
    return (this.c.cold[s] = r);
  }

  /** Replaces a slot's summary (its id stays). */
  write(s: number, v: DeliverySummary): void {
    const { strs, c } = this;
    c.evt[s] = this.eventIds.swap(c.evt[s], String(v.event_id));
    c.sub[s] = strs.swap(c.sub[s], String(v.subscription_id));
    c.company[s] = strs.swap(c.company[s], String(v.company_id));
    c.doc[s] = this.swapOrNull(c.doc[s], v.document_id === null ? null : String(v.document_id));
    // Every cold field is written below: one kept in the sidecar need not be read first (its id is).
    if (c.cold[s] < 0) {
      const r = this.cold.alloc();
      if (c.cold[s] !== NO_ROW) this.ids.back(s, r);
      c.cold[s] = r;
    }
    const k = this.cold.k;
    const r = c.cold[s];
    const shape = shapeOf(v);
    if (shape === undefined || !numbers(v)) {
      k.type[r] = this.swapOrNull(k.type[r], null);
      k.url[r] = this.swapOrNull(k.url[r], null);
      k.err[r] = this.swapOrNull(k.err[r], null);
      k.shape[r] = this.swapOrNull(k.shape[r], null);
      const st = STATUSES.indexOf(v.status);
      c.status[s] = st < 0 ? OTHER_STATUS : st;
      this.odd.set(s, { ...v });
      return;
    }
    this.odd.delete(s);
    k.type[r] = strs.swap(k.type[r], v.event_type);
    k.url[r] = strs.swap(k.url[r], v.url);
    k.err[r] = this.swapOrNull(k.err[r], v.last_error);
    k.shape[r] = this.swapOrNull(k.shape[r], shape ?? null);
    c.status[s] = STATUSES.indexOf(v.status);
    k.attempts[r] = v.attempts;
    c.created[s] = NUMS[0];
    k.lastAt[r] = NUMS[1];
    k.code[r] = NUMS[2];
    k.dur[r] = NUMS[3];
    k.next[r] = NUMS[4];
    c.flags[s] = (v.imported ? IMPORTED : 0) | (v.origin === 'check' ? CHECK : 0) | (v.last_tunnel_offline ? TUNNEL_OFFLINE : 0);
  }

  read(s: number): DeliverySummary {
    const o = this.odd.get(s);
    if (o) return { ...o };
    const id = this.ids.idOf(s) as string;
    const str = (i: number): string => this.strs.get(i);
    const evt = (i: number): string => this.eventIds.get(i);
    const ref = this.c.cold[s];
    if (ref >= 0) return decodeRow(this.c, s, id, str, evt, this.cold.k, ref);
    const src = this.coldSource(this.c.baseSeg[s]);
    return decodeRow(this.c, s, id, str, evt, src.rows, sidecarRowOf(ref), (i) => src.strings[i] as string);
  }

  /** Whether slot `s` reads back with exactly the SUMMARY_KEYS (no key order of its own, no later keys, not kept whole). */
  isUsual(s: number): boolean {
    if (this.c.flags[s] !== 0 || (this.odd.size > 0 && this.odd.has(s))) return false;
    const ref = this.c.cold[s];
    if (ref >= 0) return this.cold.k.shape[ref] < 0;
    return this.coldSource(this.c.baseSeg[s]).rows.shape[sidecarRowOf(ref)] < 0;
  }

  /** evictRows (evict-rows.ts): the deliveries of `segId` whose fields are row k of `src`, just written, give theirs up. */
  evict(segId: number, src: ColdSource, slots: ArrayLike<number>): number {
    return evictRows(this, this.pool, this.odd, { segId, src, slots });
  }

  /** How many summaries are kept whole. */
  get oddCount(): number {
    return this.odd.size;
  }

  /** The summary kept whole, if the slot's is not in the compact form. */
  oddOf(s: number): DeliverySummary | undefined {
    return this.odd.get(s);
  }

  /**
   * The sidecar's bulk path (sidecar.ts, import-rows.ts): rows `ks` of `src` as new
   * slots of segment `segId`; their cold fields stay in its sidecar unless pending.
   */
  importRows(src: RowColumns, ks: number[], ids: IdBytes, segId: number, strMap: Int32Array, evtMap: Int32Array): number[] {
    return importRows(this, { strs: this.strs, eventIds: this.eventIds }, { src, ks, ids, segId, strMap, evtMap });
  }

  /** Creation time (epoch ms) of a compact slot. */
  createdMs(s: number): number {
    return this.c.created[s];
  }

  isPending(s: number): boolean {
    return this.c.status[s] === 0;
  }

  /** Frees the slot and everything it refers to. */
  remove(s: number): void {
    if (!this.ids.has(s)) return;
    this.ids.delete(s);
    this.odd.delete(s);
    this.eventIds.release(this.c.evt[s]);
    const { c } = this;
    for (const col of [c.sub, c.company, c.doc]) this.swapOrNull(col[s], null);
    if (c.cold[s] >= 0) this.cold.release(c.cold[s]);
    c.cold[s] = NO_ROW;
    this.pool.freeChain(this.c.aHead[s]);
    this.freeSlots.push(s);
  }

  addAttempt(s: number, loc: Loc): void {
    this.addAttemptAt(s, loc.seg.id, loc.off, loc.len, loc.item ?? -1);
  }

  /** addAttempt without a Loc object (the sidecar's bulk path); item -1: none. */
  addAttemptAt(s: number, segId: number, off: number, len: number, item: number): void {
    const head = this.attemptHead(s);
    const n = this.pool.append(this.pool.last(head), segId, off, len, item);
    if (head < 0) this.c.aHead[s] = n;
  }

  /** Replaces every attempt location (a carried base embeds them all). */
  setAttempts(s: number, locs: Loc[]): void {
    this.pool.freeChain(this.c.aHead[s]);
    this.c.aHead[s] = -1;
    for (const loc of locs) this.addAttempt(s, loc);
  }

  /** The first node of the slot's attempt chain (-1: none), made from its segment's sidecar first if its attempts are there. */
  attemptHead(s: number): number {
    const head = this.c.aHead[s];
    if (head >= -1) return head;
    const segId = this.c.baseSeg[s];
    return (this.c.aHead[s] = this.pool.chainFrom(this.coldSource(segId), sidecarRowOf(head), segId));
  }

  /** The last attempt node: changes whenever an attempt is added or the chain replaced. */
  attemptTail(s: number): number {
    return this.pool.last(this.attemptHead(s));
  }

  private swapOrNull(old: number, value: string | null): number {
    if (value !== null) return this.strs.swap(old, value);
    if (old >= 0) this.strs.release(old);
    return -1;
  }

  /** Makes room for `n` slots in all, at once (start-up knows how many are coming). */
  reserve(n: number): void {
    if (n > this.c.seq.length) this.growTo(n);
    this.ids.reserveClosed(n);
  }

  /** A free slot (its columns are the caller's to write). */
  allocSlot(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    if (this.used === this.c.seq.length) this.growTo(nextCapacity(this.used));
    return this.used++;
  }

  private growTo(cap: number): void {
    const c = this.c as Record<string, Column>;
    for (const k of Object.keys(c)) c[k] = grown(c[k], cap);
  }
}
