// A new slot of the DeliveryTable copied from another (one event's fan-out, history-log.ts
// recordDeliveries): its deliveries differ only in their id, subscription and url, which
// summary-bytes.ts FanoutLines.like checks, so the rest of a row need not be worked out
// from the summary again (its strings looked up, its times parsed, its key order told).
import type { DeliverySummary } from '../history-types.js';
import type { DeliveryTable } from './delivery-table.js';
import type { IdInterner } from './id-interner.js';
import type { Interner } from './interner.js';

/**
 * Slot `from`'s values (a usual row whose cold fields are in memory) with v's id,
 * subscription and url as a new slot; the shared strings' references counted once more.
 */
export function insertLike(
  t: DeliveryTable,
  strs: Interner,
  eventIds: IdInterner,
  seq: number,
  v: DeliverySummary,
  segId: number,
  from: number,
): number {
  const s = t.allocSlot();
  const r = t.cold.alloc();
  const f = t.c.cold[from];
  const { c } = t;
  const { k } = t.cold;
  c.seq[s] = seq;
  c.baseSeg[s] = segId;
  c.aHead[s] = -1;
  c.cold[s] = r;
  t.ids.set(v.id, s);
  c.status[s] = c.status[from];
  c.flags[s] = c.flags[from];
  c.created[s] = c.created[from];
  eventIds.retain((c.evt[s] = c.evt[from]));
  strs.retain((c.company[s] = c.company[from]));
  if ((c.doc[s] = c.doc[from]) >= 0) strs.retain(c.doc[s]);
  c.sub[s] = strs.add(v.subscription_id);
  k.attempts[r] = k.attempts[f];
  k.lastAt[r] = k.lastAt[f];
  k.code[r] = k.code[f];
  k.dur[r] = k.dur[f];
  k.next[r] = k.next[f];
  k.shape[r] = -1;
  strs.retain((k.type[r] = k.type[f]));
  if ((k.err[r] = k.err[f]) >= 0) strs.retain(k.err[r]);
  k.url[r] = strs.add(v.url);
  return s;
}
