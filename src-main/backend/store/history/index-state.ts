// The in-memory index of the history log: every delivery summary and event summary,
// ordered lists for paging, and the file location of every attempt and event body
// (never their contents). Lists are ordered by a creation sequence number stored in
// the records, so the order survives a restart and retention's carried copies.
//
// Compact by design (docs/storage.md, "Memory"): summaries live in typed columns with
// interned strings (delivery-table.ts, event-table.ts), lists hold record numbers, and
// attempt locations are chains in one pool (loc-pool.ts): about 220 bytes a delivery,
// 370 when each has an event of its own (docs/storage.md; bench/index-memory.ts); a
// closed segment's deliveries leave what listing does not need in its sidecar
// (cold-rows.ts), ~70 bytes less.
import type { DeliveryFilter, DeliverySummary, EventSummary } from '../history-types.js';
import { sidecarRowOf } from './cold-rows.js';
import { ColdSources } from './cold-source.js';
import { DeliveryTable } from './delivery-table.js';
import { EventTable } from './event-table.js';
import { IdInterner } from './id-interner.js';
import { Interner } from './interner.js';
import { LocPool } from './loc-pool.js';
import { lowerBound, SlotLists } from './slot-lists.js';
import { TimeOrders } from './time-order.js';
import type { Loc, Segment } from './segments.js';
import type { Page } from '@shared/api-types.js';
import { CHUNK_ROWS } from './kept-shapes.js';

const EMPTY: Page<DeliverySummary> = { data: [], has_more: false };

export class HistoryIndex {
  readonly strs = new Interner();
  readonly eventIds = new IdInterner();
  readonly pool = new LocPool();
  readonly d = new DeliveryTable(this.strs, this.eventIds, this.pool);
  readonly ev = new EventTable(this.strs, this.eventIds);
  /** The segments on disk by id (locations name their segment by id). */
  readonly segs = new Map<number, Segment>();
  /** Closed segments' cold fields, read back from their sidecars (cold-source.ts). */
  readonly cold = new ColdSources(this.segs);
  private readonly dSeq = (s: number): number => this.d.c.seq[s];
  private readonly byCompany = new SlotLists(this.dSeq);
  private readonly bySubscription = new SlotLists(this.dSeq);
  private readonly byDocument = new SlotLists(this.dSeq);
  private readonly byEvent = new SlotLists(this.dSeq);
  private readonly docEvents = new SlotLists((i) => this.ev.seq[i]);
  /** Each company's deliveries by creation time (the inspector's order). */
  private readonly times = new TimeOrders(
    (s) => this.createdMs(s),
    (s) => this.d.idOf(s),
  );
  /** False while the start-up scan fills the tables: the lists are built once at its end. */
  private listing = true;

  constructor(loading = false) {
    this.listing = !loading;
    this.d.coldSource = (segId) => this.cold.get(segId);
  }

  // ---- deliveries ----

  getDelivery(id: string): DeliverySummary | undefined {
    const s = this.d.slot(id);
    return s === undefined ? undefined : this.d.read(s);
  }

  /** A new delivery (while listing: with the highest seq so far). */
  addDelivery(seq: number, v: DeliverySummary, seg: Segment, like = -1): number {
    // `like`: a slot whose values v has but for its id, subscription and url (delivery-table.ts insertLike).
    const s = like >= 0 ? this.d.insertLike(seq, v, seg.id, like) : this.d.insert(seq, v, seg.id);
    if (this.listing) {
      this.listDelivery(s, (lists, key) => lists.push(key, s));
      this.times.add(this.d.c.company[s], s);
    }
    return s;
  }

  /** Replaces a delivery's summary, moving it between lists if a key field changed. */
  updateDelivery(s: number, v: DeliverySummary): void {
    const { d } = this;
    const company = d.c.company[s];
    const sub = d.c.sub[s];
    const doc = d.c.doc[s];
    const evt = d.c.evt[s];
    const ms = this.times.has(company) ? this.createdMs(s) : 0;
    d.write(s, v);
    if (this.listing) this.times.changed(s, company, ms, d.c.company[s]);
    if (!this.listing || (company === d.c.company[s] && sub === d.c.sub[s] && doc === d.c.doc[s] && evt === d.c.evt[s])) return;
    this.byCompany.remove(company, s);
    this.bySubscription.remove(sub, s);
    this.byEvent.remove(evt, s);
    if (doc >= 0) this.byDocument.remove(doc, s);
    this.listDelivery(s, (lists, key) => lists.insert(key, s));
  }

  /** A delivery's new base record (a carried copy): its summary, segment and every attempt. */
  rebase(s: number, v: DeliverySummary, seg: Segment, attempts: Loc[]): void {
    this.updateDelivery(s, v);
    this.d.c.baseSeg[s] = seg.id;
    this.d.setAttempts(s, attempts);
  }

  /** The slot's attempt locations, oldest first (from its segment's sidecar, without a chain, if they are there). */
  attempts(s: number): Loc[] {
    const head = this.d.c.aHead[s];
    if (head >= -1) return this.pool.locs(head, this.segs);
    const seg = this.segs.get(this.d.c.baseSeg[s]);
    if (!seg) return [];
    const src = this.cold.get(seg.id);
    const out: Loc[] = [];
    for (let k = sidecarRowOf(head), a = src.aFirst[k]; a < src.aFirst[k + 1]; a++)
      out.push({ seg, off: src.aOff[a], len: src.aLen[a], ...(src.aItem[a] >= 0 ? { item: src.aItem[a] } : {}) });
    return out;
  }

  /** Every delivery whose status is pending, oldest slot first: one pass over the status column. */
  pendingDeliveries(): DeliverySummary[] {
    const { d } = this;
    const out: DeliverySummary[] = [];
    for (let s = 0; s < d.end; s++) if (d.isPending(s) && d.isLive(s)) out.push(d.read(s));
    return out;
  }

  /** Deliveries whose base record is in segment `segId`. */
  deliveriesIn(segId: number): number[] {
    const out: number[] = [];
    // A chunk of slots a call (kept-shapes.ts): run once per close, one loop would be compiled again at every close.
    for (let from = 0; from < this.d.end; from += CHUNK_ROWS) this.liveIn(segId, from, Math.min(this.d.end, from + CHUNK_ROWS), out);
    return out;
  }

  private liveIn(segId: number, from: number, to: number, out: number[]): void {
    const { d } = this;
    for (let s = from; s < to; s++) if (d.c.baseSeg[s] === segId && d.isLive(s)) out.push(s);
  }

  /** Removes deliveries (retention): one pass over each affected list. */
  removeDeliveries(slots: number[]): void {
    if (slots.length === 0) return;
    const gone = new Set(slots);
    const touched = new Map<SlotLists, Set<number>>();
    for (const s of slots) {
      this.listDelivery(s, (lists, key) => {
        const keys = touched.get(lists) ?? new Set<number>();
        keys.add(key);
        touched.set(lists, keys);
      });
    }
    for (const [lists, keys] of touched) lists.removeMany(keys, gone);
    this.times.removeMany(slots, (s) => this.d.c.company[s]);
    for (const s of slots) this.d.remove(s);
    this.d.ids.sweep();
  }

  // ---- events ----

  getEvent(id: string): EventSummary | undefined {
    const i = this.ev.find(id);
    return i === undefined ? undefined : this.ev.read(i);
  }

  eventLoc(id: string): Loc | undefined {
    const i = this.ev.find(id);
    return i === undefined ? undefined : this.ev.loc(i, this.segs);
  }

  /** Records an event, or replaces its summary and location if it was recorded before. */
  putEvent(seq: number, v: EventSummary, loc: Loc): void {
    const { ev } = this;
    const known = ev.find(v.id);
    if (known === undefined) {
      const i = ev.add(seq, v, loc);
      if (this.listing && ev.doc[i] >= 0) this.docEvents.insert(ev.doc[i], i);
      return;
    }
    if (this.listing && ev.doc[known] >= 0) this.docEvents.remove(ev.doc[known], known);
    ev.write(known, v, loc);
    if (this.listing && ev.doc[known] >= 0) this.docEvents.insert(ev.doc[known], known);
  }

  /** The sequence number of a recorded event. */
  eventSeq(id: string): number | undefined {
    const i = this.ev.find(id);
    return i === undefined ? undefined : this.ev.seq[i];
  }

  removeEvents(nums: number[]): void {
    for (const i of nums) {
      if (this.ev.doc[i] >= 0) this.docEvents.remove(this.ev.doc[i], i);
      this.ev.remove(i);
    }
  }

  eventsForDocument(companyId: string, documentId: string): EventSummary[] {
    const c = this.strs.find(companyId);
    const doc = this.strs.find(documentId);
    if (c === undefined || doc === undefined) return [];
    const out: EventSummary[] = [];
    for (const i of Array.from(this.docEvents.get(doc) ?? [])) if (this.ev.company[i] === c) out.push(this.ev.read(i));
    return out;
  }

  // ---- start-up and paging ----

  /** After the start-up scan filled the tables: builds every list in seq order, and lists from now on. */
  buildLists(): void {
    for (const lists of [this.byCompany, this.bySubscription, this.byDocument, this.byEvent, this.docEvents]) lists.clear();
    const { d, ev } = this;
    const live: number[] = [];
    for (let s = 0; s < d.end; s++) if (d.isLive(s)) live.push(s);
    for (const s of inSeqOrder(live, d.c.seq)) this.listDelivery(s, (lists, key) => lists.push(key, s));
    for (const i of inSeqOrder(ev.all(), ev.seq)) if (ev.doc[i] >= 0) this.docEvents.push(ev.doc[i], i);
    this.times.build(this.byCompany.entries(), (slots, out) => this.createdMsOf(slots, out));
    this.listing = true;
  }

  list(filter: DeliveryFilter, page: { limit: number; starting_after?: string }): Page<DeliverySummary> {
    const limit = Math.max(1, Math.floor(page.limit) || 1);
    const { d, strs } = this;
    const c = strs.find(filter.company_id);
    const sub = filter.subscription_id === undefined ? -1 : strs.find(filter.subscription_id);
    const doc = filter.document_id === undefined ? -1 : strs.find(filter.document_id);
    const evt = filter.event_id === undefined ? -1 : this.eventIds.find(filter.event_id);
    if (c === undefined || sub === undefined || doc === undefined || evt === undefined) return EMPTY;
    const list =
      evt >= 0
        ? this.byEvent.get(evt)
        : doc >= 0
          ? this.byDocument.get(doc)
          : sub >= 0
            ? this.bySubscription.get(sub)
            : this.byCompany.get(c);
    if (!list) return EMPTY;
    let end = list.length;
    if (page.starting_after !== undefined) {
      const cursor = d.slot(page.starting_after);
      // An unknown cursor (or another company's) gives an empty page, never a leak.
      if (cursor === undefined || d.c.company[cursor] !== c) return EMPTY;
      end = lowerBound(list, d.c.seq[cursor], this.dSeq);
    }
    const data: DeliverySummary[] = [];
    for (let i = end - 1; i >= 0; i--) {
      const s = list[i];
      if (d.c.company[s] !== c || (sub >= 0 && d.c.sub[s] !== sub) || (doc >= 0 && d.c.doc[s] !== doc) || (evt >= 0 && d.c.evt[s] !== evt))
        continue;
      if (data.length === limit) return { data, has_more: true };
      data.push(d.read(s));
    }
    return { data, has_more: false };
  }

  /** See HistoryLog.deliveriesByTime. */
  *byTime(companyId: string, from?: { ms: number; id: string }): Generator<{ d: DeliverySummary; ms: number }> {
    const c = this.strs.find(companyId);
    if (c === undefined) return;
    for (const { s, ms } of this.times.newestFirst(c, from)) yield { d: this.d.read(s), ms };
  }

  /** The creation times of `slots` (start-up: straight from the column when no summary is kept whole). */
  private createdMsOf(slots: Int32Array, out: Float64Array): void {
    const created = this.d.c.created;
    if (this.d.oddCount > 0) for (let i = 0; i < slots.length; i++) out[i] = this.createdMs(slots[i]);
    else for (let i = 0; i < slots.length; i++) out[i] = Number.isNaN(created[slots[i]]) ? 0 : created[slots[i]];
  }

  /** A delivery's creation time in epoch ms (0 if unreadable). */
  private createdMs(s: number): number {
    const odd = this.d.oddOf(s);
    const ms = odd ? Date.parse(odd.created_at) : this.d.createdMs(s);
    return Number.isNaN(ms) ? 0 : ms;
  }

  private listDelivery(s: number, fn: (lists: SlotLists, key: number) => void): void {
    const { d } = this;
    fn(this.byCompany, d.c.company[s]);
    fn(this.bySubscription, d.c.sub[s]);
    fn(this.byEvent, d.c.evt[s]);
    if (d.c.doc[s] >= 0) fn(this.byDocument, d.c.doc[s]);
  }
}

/** The numbers ordered by `seq` (stable; a single numeric sort when it can be packed). */
function inSeqOrder(nums: number[], seq: Float64Array): number[] {
  let sorted = true;
  for (let k = 1; k < nums.length && sorted; k++) sorted = seq[nums[k - 1]] <= seq[nums[k]];
  if (sorted) return nums;
  const span = 2 ** 24;
  const max = nums.reduce((m, n) => Math.max(m, seq[n]), 0);
  if (nums.length <= span && max < 2 ** 53 / span) {
    const packed = new Float64Array(nums.length);
    nums.forEach((n, k) => (packed[k] = seq[n] * span + k));
    packed.sort();
    return Array.from(packed, (p) => nums[p % span]);
  }
  return nums.slice().sort((a, b) => seq[a] - seq[b] || a - b);
}
