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
  fits,
  numbers,
  CHECK,
  IMPORTED,
  NUMBER_COLUMNS,
  OTHER_STATUS,
  STATUSES,
  STRING_COLUMNS,
  TUNNEL_OFFLINE,
  type RowColumns,
} from './delivery-row.js';
import type { Interner } from './interner.js';
import type { LocPool } from './loc-pool.js';
import type { Loc } from './segments.js';

export class DeliveryTable {
  private readonly slotOf = new Map<string, number>();
  private readonly ids: (string | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly odd = new Map<number, DeliverySummary>();
  private used = 0;
  /** The columns, one entry per slot (exported for the index sidecar, history/sidecar.ts). */
  c = deliveryColumns(0);

  constructor(
    private readonly strs: Interner,
    private readonly eventIds: Interner,
    private readonly pool: LocPool,
  ) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** One past the highest slot ever used (slots below it may be free). */
  get end(): number {
    return this.used;
  }

  slot(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  isLive(slot: number): boolean {
    return this.ids[slot] !== undefined;
  }

  idOf(slot: number): string {
    return this.ids[slot] as string;
  }

  insert(seq: number, v: DeliverySummary, segId: number): number {
    const s = this.alloc();
    this.ids[s] = v.id;
    this.slotOf.set(v.id, s);
    this.c.seq[s] = seq;
    this.c.baseSeg[s] = segId;
    this.c.aHead[s] = this.c.aTail[s] = -1;
    this.c.evt[s] = this.c.sub[s] = this.c.company[s] = this.c.doc[s] = this.c.type[s] = this.c.url[s] = this.c.err[s] = -1;
    this.write(s, v);
    return s;
  }

  /** Replaces a slot's summary (its id stays). */
  write(s: number, v: DeliverySummary): void {
    const { strs } = this;
    this.c.evt[s] = this.eventIds.swap(this.c.evt[s], String(v.event_id));
    this.c.sub[s] = strs.swap(this.c.sub[s], String(v.subscription_id));
    this.c.company[s] = strs.swap(this.c.company[s], String(v.company_id));
    this.c.doc[s] = this.swapOrNull(this.c.doc[s], v.document_id === null ? null : String(v.document_id));
    const nums = fits(v) ? numbers(v) : null;
    if (!nums) {
      this.c.type[s] = this.swapOrNull(this.c.type[s], null);
      this.c.url[s] = this.swapOrNull(this.c.url[s], null);
      this.c.err[s] = this.swapOrNull(this.c.err[s], null);
      const st = STATUSES.indexOf(v.status);
      this.c.status[s] = st < 0 ? OTHER_STATUS : st;
      this.odd.set(s, { ...v });
      return;
    }
    this.odd.delete(s);
    this.c.type[s] = strs.swap(this.c.type[s], v.event_type);
    this.c.url[s] = strs.swap(this.c.url[s], v.url);
    this.c.err[s] = this.swapOrNull(this.c.err[s], v.last_error);
    this.c.status[s] = STATUSES.indexOf(v.status);
    this.c.attempts[s] = v.attempts;
    [this.c.created[s], this.c.lastAt[s], this.c.code[s], this.c.dur[s], this.c.next[s]] = nums;
    this.c.flags[s] = (v.imported ? IMPORTED : 0) | (v.origin === 'check' ? CHECK : 0) | (v.last_tunnel_offline ? TUNNEL_OFFLINE : 0);
  }

  read(s: number): DeliverySummary {
    const o = this.odd.get(s);
    if (o) return { ...o };
    return decodeRow(
      this.c,
      s,
      this.ids[s] as string,
      (i) => this.strs.get(i),
      (i) => this.eventIds.get(i),
    );
  }

  /** The summary kept whole, if the slot's is not in the compact form. */
  oddOf(s: number): DeliverySummary | undefined {
    return this.odd.get(s);
  }

  /**
   * The sidecar's bulk path (sidecar.ts): a new slot from row k of `src`, whose string
   * numbers map to this table's through `strMap` and `evtMap` (each use retained here).
   */
  importRow(id: string, segId: number, src: RowColumns, k: number, strMap: Int32Array, evtMap: Int32Array): number {
    const s = this.alloc();
    const { c } = this;
    this.ids[s] = id;
    this.slotOf.set(id, s);
    c.baseSeg[s] = segId;
    c.aHead[s] = c.aTail[s] = -1;
    for (const name of NUMBER_COLUMNS) c[name][s] = src[name][k];
    for (const name of STRING_COLUMNS) {
      const g = src[name][k] < 0 ? -1 : strMap[src[name][k]];
      if (g >= 0) this.strs.retain(g);
      c[name][s] = g;
    }
    c.evt[s] = evtMap[src.evt[k]];
    this.eventIds.retain(c.evt[s]);
    return s;
  }

  isPending(s: number): boolean {
    return this.c.status[s] === 0;
  }

  /** Frees the slot and everything it refers to. */
  remove(s: number): void {
    const id = this.ids[s];
    if (id === undefined) return;
    this.slotOf.delete(id);
    this.ids[s] = undefined;
    this.odd.delete(s);
    this.eventIds.release(this.c.evt[s]);
    const { c } = this;
    for (const col of [c.sub, c.company, c.doc, c.type, c.url, c.err]) this.swapOrNull(col[s], null);
    this.pool.freeChain(this.c.aHead[s]);
    this.freeSlots.push(s);
  }

  addAttempt(s: number, loc: Loc): void {
    this.addAttemptAt(s, loc.seg.id, loc.off, loc.len, loc.item ?? -1);
  }

  /** addAttempt without a Loc object (the sidecar's bulk path); item -1: none. */
  addAttemptAt(s: number, segId: number, off: number, len: number, item: number): void {
    const n = this.pool.append(this.c.aTail[s], segId, off, len, item);
    if (this.c.aHead[s] < 0) this.c.aHead[s] = n;
    this.c.aTail[s] = n;
  }

  /** Replaces every attempt location (a carried base embeds them all). */
  setAttempts(s: number, locs: Loc[]): void {
    this.pool.freeChain(this.c.aHead[s]);
    this.c.aHead[s] = this.c.aTail[s] = -1;
    for (const loc of locs) this.addAttempt(s, loc);
  }

  attemptHead(s: number): number {
    return this.c.aHead[s];
  }

  /** The last attempt node: changes whenever an attempt is added or the chain replaced. */
  attemptTail(s: number): number {
    return this.c.aTail[s];
  }

  private swapOrNull(old: number, value: string | null): number {
    if (value !== null) return this.strs.swap(old, value);
    if (old >= 0) this.strs.release(old);
    return -1;
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
