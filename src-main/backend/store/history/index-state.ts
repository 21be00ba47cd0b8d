// The in-memory index of the history log: every delivery summary and event summary,
// ordered lists for paging, and the file location of every attempt and event body
// (never their contents). Lists are ordered by a creation sequence number stored in
// the records, so the order survives a restart and retention's carried copies.
import type { DeliveryFilter, DeliverySummary, EventSummary } from '../history-types.js';
import type { Loc, Segment } from './segments.js';
import type { Page } from '@shared/api-types.js';

export interface DeliveryEntry {
  seq: number;
  v: DeliverySummary;
  /** The segment holding its base record; every later record of it is in this or a newer one. */
  seg: Segment;
  attempts: Loc[];
}

export interface EventEntry {
  seq: number;
  v: EventSummary;
  loc: Loc;
}

const docKey = (companyId: string, documentId: string) => `${companyId}\u0000${documentId}`;

function pushTo<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

/** First index whose seq is >= seq. */
function lowerBound(list: { seq: number }[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted<T extends { seq: number }>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (!list) map.set(key, [item]);
  else list.splice(lowerBound(list, item.seq), 0, item);
}

function removeFrom<T extends { seq: number }>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (!list) return;
  const i = lowerBound(list, item.seq);
  if (list[i] === item) list.splice(i, 1);
  if (list.length === 0) map.delete(key);
}

export class HistoryIndex {
  readonly deliveries = new Map<string, DeliveryEntry>();
  readonly events = new Map<string, EventEntry>();
  /** Kept deliveries per event id: an event is carried by retention while this is > 0. */
  readonly eventRefs = new Map<string, number>();
  private readonly byCompany = new Map<string, DeliveryEntry[]>();
  private readonly bySubscription = new Map<string, DeliveryEntry[]>();
  private readonly byDocument = new Map<string, DeliveryEntry[]>();
  private readonly byEvent = new Map<string, DeliveryEntry[]>();
  private readonly docEvents = new Map<string, EventEntry[]>();

  /** A new delivery with the highest seq so far. */
  addDelivery(e: DeliveryEntry): void {
    this.deliveries.set(e.v.id, e);
    this.listDelivery(e, (map, key) => pushTo(map, key, e));
  }

  /** Replaces a delivery's summary, moving it between lists if a key field changed. */
  updateDelivery(e: DeliveryEntry, v: DeliverySummary): void {
    const old = e.v;
    const moved =
      old.company_id !== v.company_id ||
      old.subscription_id !== v.subscription_id ||
      old.document_id !== v.document_id ||
      old.event_id !== v.event_id;
    if (!moved) {
      e.v = v;
      return;
    }
    this.listDelivery(e, (map, key) => removeFrom(map, key, e));
    e.v = v;
    this.listDelivery(e, (map, key) => insertSorted(map, key, e));
  }

  /** Removes deliveries (retention): one pass over each affected list. */
  removeDeliveries(entries: DeliveryEntry[]): void {
    if (entries.length === 0) return;
    const gone = new Set(entries);
    const touched = new Map<Map<string, DeliveryEntry[]>, Set<string>>();
    for (const e of entries) {
      this.deliveries.delete(e.v.id);
      this.listDelivery(e, (map, key) => {
        const keys = touched.get(map) ?? new Set<string>();
        keys.add(key);
        touched.set(map, keys);
      });
    }
    for (const [map, keys] of touched) {
      for (const key of keys) {
        const kept = (map.get(key) ?? []).filter((x) => !gone.has(x));
        if (kept.length > 0) map.set(key, kept);
        else map.delete(key);
      }
    }
  }

  addEvent(e: EventEntry): void {
    this.events.set(e.v.id, e);
    if (e.v.document_id !== null) insertSorted(this.docEvents, docKey(e.v.company_id, e.v.document_id), e);
  }

  replaceEvent(e: EventEntry, v: EventSummary, loc: Loc): void {
    if (e.v.document_id !== null) removeFrom(this.docEvents, docKey(e.v.company_id, e.v.document_id), e);
    e.v = v;
    e.loc = loc;
    if (v.document_id !== null) insertSorted(this.docEvents, docKey(v.company_id, v.document_id), e);
  }

  removeEvents(entries: EventEntry[]): void {
    const gone = new Set(entries);
    const keys = new Set<string>();
    for (const e of entries) {
      this.events.delete(e.v.id);
      if (e.v.document_id !== null) keys.add(docKey(e.v.company_id, e.v.document_id));
    }
    for (const key of keys) {
      const kept = (this.docEvents.get(key) ?? []).filter((x) => !gone.has(x));
      if (kept.length > 0) this.docEvents.set(key, kept);
      else this.docEvents.delete(key);
    }
  }

  ref(eventId: string, by: number): void {
    const n = (this.eventRefs.get(eventId) ?? 0) + by;
    if (n > 0) this.eventRefs.set(eventId, n);
    else this.eventRefs.delete(eventId);
  }

  /** After the startup scan filled `deliveries` and `events`: builds every list in seq order. */
  buildLists(): void {
    const ds = [...this.deliveries.values()].sort((a, b) => a.seq - b.seq);
    for (const e of ds) {
      this.listDelivery(e, (map, key) => pushTo(map, key, e));
      this.ref(e.v.event_id, 1);
    }
    const es = [...this.events.values()].sort((a, b) => a.seq - b.seq);
    for (const e of es) if (e.v.document_id !== null) pushTo(this.docEvents, docKey(e.v.company_id, e.v.document_id), e);
  }

  list(filter: DeliveryFilter, page: { limit: number; starting_after?: string }): Page<DeliverySummary> {
    const limit = Math.max(1, Math.floor(page.limit) || 1);
    const list =
      filter.event_id !== undefined
        ? this.byEvent.get(filter.event_id)
        : filter.document_id !== undefined
          ? this.byDocument.get(docKey(filter.company_id, filter.document_id))
          : filter.subscription_id !== undefined
            ? this.bySubscription.get(filter.subscription_id)
            : this.byCompany.get(filter.company_id);
    if (!list) return { data: [], has_more: false };
    let end = list.length;
    if (page.starting_after !== undefined) {
      const cursor = this.deliveries.get(page.starting_after);
      // An unknown cursor (or another company's) gives an empty page, never a leak.
      if (!cursor || cursor.v.company_id !== filter.company_id) return { data: [], has_more: false };
      end = lowerBound(list, cursor.seq);
    }
    const data: DeliverySummary[] = [];
    for (let i = end - 1; i >= 0; i--) {
      const v = list[i].v;
      if (
        v.company_id !== filter.company_id ||
        (filter.subscription_id !== undefined && v.subscription_id !== filter.subscription_id) ||
        (filter.document_id !== undefined && v.document_id !== filter.document_id) ||
        (filter.event_id !== undefined && v.event_id !== filter.event_id)
      ) {
        continue;
      }
      if (data.length === limit) return { data, has_more: true };
      data.push({ ...v });
    }
    return { data, has_more: false };
  }

  eventsForDocument(companyId: string, documentId: string): EventSummary[] {
    return (this.docEvents.get(docKey(companyId, documentId)) ?? []).map((e) => ({ ...e.v }));
  }

  private listDelivery(e: DeliveryEntry, fn: (map: Map<string, DeliveryEntry[]>, key: string) => void): void {
    fn(this.byCompany, e.v.company_id);
    fn(this.bySubscription, e.v.subscription_id);
    fn(this.byEvent, e.v.event_id);
    if (e.v.document_id !== null) fn(this.byDocument, docKey(e.v.company_id, e.v.document_id));
  }
}
