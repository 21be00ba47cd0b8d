// The delivery summaries of the history index, in columns (columns.ts): one slot per
// delivery, its strings interned (interner.ts), its times and numbers as float64s,
// its attempts' file locations in a chain of the LocPool. A summary is read back as
// the same object it was recorded as: the same keys in the same order with the same
// values. One that this form cannot give back exactly (keys of another order or kind,
// a time that is not a canonical ISO string: an imported record) is kept whole instead,
// its key fields still in the columns for the lists.
import type { DeliverySummary } from '../history-types.js';
import { grown, nextCapacity, type Column } from './columns.js';
import {
  decodeRow,
  deliveryColumns,
  shapeOf,
  numbers,
  NUMS,
  CHECK,
  IMPORTED,
  NUMBER_COLUMNS,
  OTHER_STATUS,
  STATUSES,
  STRING_COLUMNS,
  TUNNEL_OFFLINE,
  type RowColumns,
} from './delivery-row.js';
import type { IdInterner } from './id-interner.js';
import type { Interner } from './interner.js';
import type { LocPool } from './loc-pool.js';
import type { Loc } from './segments.js';
import { IdTable, type IdBytes } from './id-table.js';
import { RowCompare } from './row-compare.js';
import { copyRun, mapColumn } from './row-runs.js';

export class DeliveryTable {
  readonly ids = new IdTable();
  private readonly freeSlots: number[] = [];
  private readonly odd = new Map<number, DeliverySummary>();
  private used = 0;
  /** The columns, one entry per slot (exported for the index sidecar, history/sidecar.ts). */
  c = deliveryColumns(0);

  /** Rows read and compared field by field, in place (row-compare.ts). */
  readonly rows: RowCompare;

  constructor(
    private readonly strs: Interner,
    private readonly eventIds: IdInterner,
    private readonly pool: LocPool,
  ) {
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
    const s = this.alloc();
    this.ids.set(v.id, s);
    this.c.seq[s] = seq;
    this.c.baseSeg[s] = segId;
    this.c.aHead[s] = -1;
    this.c.evt[s] =
      this.c.sub[s] =
      this.c.company[s] =
      this.c.doc[s] =
      this.c.type[s] =
      this.c.url[s] =
      this.c.err[s] =
      this.c.shape[s] =
        -1;
    this.write(s, v);
    return s;
  }

  /**
   * insert() of a summary whose values are slot `from`'s but for its id, subscription and
   * url (one event's fan-out: the caller vouches for that, history/summary-bytes.ts
   * FanoutLines.like): the other columns copied, their references counted once more.
   */
  insertLike(seq: number, v: DeliverySummary, segId: number, from: number): number {
    if (!this.isUsual(from)) return this.insert(seq, v, segId);
    const s = this.alloc();
    const { c, strs } = this;
    this.ids.set(v.id, s);
    c.seq[s] = seq;
    c.baseSeg[s] = segId;
    c.aHead[s] = -1;
    c.shape[s] = -1;
    c.status[s] = c.status[from];
    c.flags[s] = c.flags[from];
    c.attempts[s] = c.attempts[from];
    c.created[s] = c.created[from];
    c.lastAt[s] = c.lastAt[from];
    c.code[s] = c.code[from];
    c.dur[s] = c.dur[from];
    c.next[s] = c.next[from];
    this.eventIds.retain((c.evt[s] = c.evt[from]));
    strs.retain((c.company[s] = c.company[from]));
    strs.retain((c.type[s] = c.type[from]));
    if ((c.doc[s] = c.doc[from]) >= 0) strs.retain(c.doc[s]);
    if ((c.err[s] = c.err[from]) >= 0) strs.retain(c.err[s]);
    c.sub[s] = strs.add(v.subscription_id);
    c.url[s] = strs.add(v.url);
    return s;
  }

  /** Replaces a slot's summary (its id stays). */
  write(s: number, v: DeliverySummary): void {
    const { strs } = this;
    this.c.evt[s] = this.eventIds.swap(this.c.evt[s], String(v.event_id));
    this.c.sub[s] = strs.swap(this.c.sub[s], String(v.subscription_id));
    this.c.company[s] = strs.swap(this.c.company[s], String(v.company_id));
    this.c.doc[s] = this.swapOrNull(this.c.doc[s], v.document_id === null ? null : String(v.document_id));
    const shape = shapeOf(v);
    if (shape === undefined || !numbers(v)) {
      this.c.type[s] = this.swapOrNull(this.c.type[s], null);
      this.c.url[s] = this.swapOrNull(this.c.url[s], null);
      this.c.err[s] = this.swapOrNull(this.c.err[s], null);
      this.c.shape[s] = this.swapOrNull(this.c.shape[s], null);
      const st = STATUSES.indexOf(v.status);
      this.c.status[s] = st < 0 ? OTHER_STATUS : st;
      this.odd.set(s, { ...v });
      return;
    }
    this.odd.delete(s);
    this.c.type[s] = strs.swap(this.c.type[s], v.event_type);
    this.c.url[s] = strs.swap(this.c.url[s], v.url);
    this.c.err[s] = this.swapOrNull(this.c.err[s], v.last_error);
    this.c.shape[s] = this.swapOrNull(this.c.shape[s], shape ?? null);
    this.c.status[s] = STATUSES.indexOf(v.status);
    this.c.attempts[s] = v.attempts;
    this.c.created[s] = NUMS[0];
    this.c.lastAt[s] = NUMS[1];
    this.c.code[s] = NUMS[2];
    this.c.dur[s] = NUMS[3];
    this.c.next[s] = NUMS[4];
    this.c.flags[s] = (v.imported ? IMPORTED : 0) | (v.origin === 'check' ? CHECK : 0) | (v.last_tunnel_offline ? TUNNEL_OFFLINE : 0);
  }

  read(s: number): DeliverySummary {
    const o = this.odd.get(s);
    if (o) return { ...o };
    return decodeRow(
      this.c,
      s,
      this.ids.idOf(s) as string,
      (i) => this.strs.get(i),
      (i) => this.eventIds.get(i),
    );
  }

  /** Whether slot `s` reads back with exactly the SUMMARY_KEYS (no key order of its own, no later keys, not kept whole). */
  isUsual(s: number): boolean {
    return this.c.shape[s] < 0 && this.c.flags[s] === 0 && !(this.odd.size > 0 && this.odd.has(s));
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
   * The sidecar's bulk path (sidecar.ts): rows `ks` of `src` as new slots, their ids
   * given as Latin-1 bytes (`idAt`/`idLen` per row), their string numbers mapped to
   * this table's through `strMap` and `evtMap` (references counted here). Column by
   * column, so a million rows cost a few copies rather than a million objects.
   */
  importRows(src: RowColumns, ks: number[], ids: IdBytes, segId: number, strMap: Int32Array, evtMap: Int32Array): number[] {
    const slots = ks.map(() => this.alloc());
    // At start-up the rows and the slots are both runs: ids and whole columns are copied at
    // once (the columns' resizable buffers are slower to index one entry at a time).
    const runs = ks.length > 0 && ks.every((k, j) => k === ks[0] + j && slots[j] === slots[0] + j);
    if (runs) this.ids.setRun(ids, ks[0], slots[0], ks.length);
    else ks.forEach((k, j) => this.ids.setBytes(ids.bytes, ids.at[k], ids.len[k], slots[j], ids.hash?.[k]));
    const { c } = this;
    if (runs) {
      const [s0, s1] = [slots[0], slots[0] + slots.length];
      c.baseSeg.fill(segId, s0, s1);
      c.aHead.fill(-1, s0, s1);
    } else
      slots.forEach((s) => {
        c.baseSeg[s] = segId;
        c.aHead[s] = -1;
      });
    for (const name of NUMBER_COLUMNS) {
      if (runs) copyRun(src[name], c[name], ks[0], slots[0], ks.length);
      else for (let j = 0; j < ks.length; j++) c[name][slots[j]] = src[name][ks[j]];
    }
    const strUses = new Int32Array(strMap.length);
    for (const name of STRING_COLUMNS) mapColumn(src[name], c[name], ks, slots, strMap, strUses, runs);
    strUses.forEach((n, l) => n > 0 && this.strs.retain(strMap[l], n));
    const evtUses = new Int32Array(evtMap.length);
    mapColumn(src.evt, c.evt, ks, slots, evtMap, evtUses, runs);
    evtUses.forEach((n, l) => n > 0 && this.eventIds.retain(evtMap[l], n));
    return slots;
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
    for (const col of [c.sub, c.company, c.doc, c.type, c.url, c.err, c.shape]) this.swapOrNull(col[s], null);
    this.pool.freeChain(this.c.aHead[s]);
    this.freeSlots.push(s);
  }

  addAttempt(s: number, loc: Loc): void {
    this.addAttemptAt(s, loc.seg.id, loc.off, loc.len, loc.item ?? -1);
  }

  /** addAttempt without a Loc object (the sidecar's bulk path); item -1: none. */
  addAttemptAt(s: number, segId: number, off: number, len: number, item: number): void {
    const head = this.c.aHead[s];
    const n = this.pool.append(this.pool.last(head), segId, off, len, item);
    if (head < 0) this.c.aHead[s] = n;
  }

  /** Replaces every attempt location (a carried base embeds them all). */
  setAttempts(s: number, locs: Loc[]): void {
    this.pool.freeChain(this.c.aHead[s]);
    this.c.aHead[s] = -1;
    for (const loc of locs) this.addAttempt(s, loc);
  }

  attemptHead(s: number): number {
    return this.c.aHead[s];
  }

  /** The last attempt node: changes whenever an attempt is added or the chain replaced. */
  attemptTail(s: number): number {
    return this.pool.last(this.c.aHead[s]);
  }

  private swapOrNull(old: number, value: string | null): number {
    if (value !== null) return this.strs.swap(old, value);
    if (old >= 0) this.strs.release(old);
    return -1;
  }

  /** Makes room for `n` slots in all, at once (start-up knows how many are coming). */
  reserve(n: number): void {
    if (n > this.c.seq.length) this.growTo(n);
    this.ids.reserveFor(n, n * 32);
  }

  private alloc(): number {
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
