// The inspector's merged list: the session company's deliveries (in the history log's
// own order, newest first) and every inbox's captures (newest first), merged by time,
// filtered, and paged with an opaque cursor. The cursor holds, for each of the two
// streams, the next item to show (inclusive), so a page never repeats or skips a row
// when new rows arrive above it; new rows reach the page through the live stream.
// Guards against a crafted cursor: it is parsed and checked, and a bad one is a 422.
import { validationError } from '../../errors.js';
import type { DeliveryFilter, DeliverySummary } from '../../store/history-types.js';
import type { Capture } from '../../receiver/types.js';
import { captureRow, deliveryRow, matches, newerFirst, timeOf, type InspectorFilter, type InspectorRow, type RowContext } from './rows.js';

/** Where a stream resumes: from its newest item, at an item (inclusive), or nowhere. */
type DeliveryPos = { t: 'top' } | { t: 'at'; id: string } | { t: 'end' };
type CapturePos = { t: 'top' } | { t: 'at'; ms: number; id: string } | { t: 'end' };

export interface FeedCursor {
  d: DeliveryPos;
  c: CapturePos;
}

export const TOP: FeedCursor = { d: { t: 'top' }, c: { t: 'top' } };

export function encodeCursor(c: FeedCursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

const badCursor = () => validationError([{ field: 'cursor', message: 'is not a cursor this list gave' }]);

export function decodeCursor(raw: string | undefined): FeedCursor {
  if (!raw) return TOP;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const o = v as { d?: { t?: unknown; id?: unknown }; c?: { t?: unknown; id?: unknown; ms?: unknown } } | null;
  const d = o?.d;
  const c = o?.c;
  const okD = d && (d.t === 'top' || d.t === 'end' || (d.t === 'at' && typeof d.id === 'string' && d.id.length <= 200));
  const okC = c && (c.t === 'top' || c.t === 'end' || (c.t === 'at' && typeof c.id === 'string' && c.id.length <= 200 && typeof c.ms === 'number' && Number.isFinite(c.ms)));
  if (!okD || !okC) throw badCursor();
  return { d: d as DeliveryPos, c: c as CapturePos };
}

/** The narrowest list the history log can walk for these filters. */
function historyFilter(ctx: RowContext, f: InspectorFilter): DeliveryFilter {
  const out: DeliveryFilter = { company_id: ctx.companyId };
  if (f.document_id) out.document_id = f.document_id;
  else if (f.subscription_id) out.subscription_id = f.subscription_id;
  return out;
}

/** The company's deliveries, newest first, from `pos` on (unfiltered: the caller filters). */
export function* deliveries(ctx: RowContext, f: InspectorFilter, pos: DeliveryPos = { t: 'top' }): Generator<DeliverySummary> {
  if (pos.t === 'end') return;
  const filter = historyFilter(ctx, f);
  let after: string | undefined;
  if (pos.t === 'at') {
    const d = ctx.history.getDelivery(pos.id);
    // Gone (retention drops the oldest first): nothing older is left either.
    if (!d || d.company_id !== ctx.companyId) return;
    yield d;
    after = d.id;
  }
  for (;;) {
    const page = ctx.history.listDeliveries(filter, { limit: 500, starting_after: after });
    for (const d of page.data) yield d;
    if (!page.has_more || page.data.length === 0) return;
    after = page.data[page.data.length - 1].id;
  }
}

interface CaptureItem {
  c: Capture;
  row: InspectorRow;
  ms: number;
}

/** Every capture that passes the filters, newest first. */
export function filteredCaptures(ctx: RowContext, f: InspectorFilter): CaptureItem[] {
  if (f.kind === 'delivery') return [];
  if (f.outcome && ['succeeded', 'failed', 'pending', 'cancelled'].includes(f.outcome)) return [];
  const out: CaptureItem[] = [];
  const inboxIds = f.inbox_id ? [f.inbox_id] : ctx.receiver.inboxes.all().map((i) => i.id);
  for (const inboxId of inboxIds) {
    for (const c of ctx.receiver.captures.list(inboxId)) {
      if (f.event_type && c.event_type !== f.event_type) continue; // cheap check first
      const row = captureRow(ctx, c);
      if (matches(row, f, c)) out.push({ c, row, ms: timeOf(c.received_at) });
    }
  }
  return out.sort((a, b) => newerFirst({ ms: a.ms, kind: 'capture', id: a.c.id }, { ms: b.ms, kind: 'capture', id: b.c.id }));
}

function captureStart(list: CaptureItem[], pos: CapturePos): number {
  if (pos.t === 'top') return 0;
  if (pos.t === 'end') return list.length;
  const at = { ms: pos.ms, kind: 'capture', id: pos.id };
  const i = list.findIndex((x) => newerFirst({ ms: x.ms, kind: 'capture', id: x.c.id }, at) >= 0);
  return i === -1 ? list.length : i;
}

export interface FeedPage {
  data: InspectorRow[];
  next_cursor: string | null;
}

export function feedPage(ctx: RowContext, f: InspectorFilter, cursor: FeedCursor, limit: number): FeedPage {
  const wantDeliveries = f.kind !== 'capture' && !(f.outcome && ['verified', 'unverified', 'duplicate'].includes(f.outcome));
  const dIt = wantDeliveries ? deliveries(ctx, f, cursor.d) : null;
  const nextDelivery = (): InspectorRow | null => {
    if (!dIt) return null;
    for (let n = dIt.next(); !n.done; n = dIt.next()) {
      const row = deliveryRow(ctx, n.value);
      if (matches(row, f)) return row;
    }
    return null;
  };
  const caps = filteredCaptures(ctx, f);
  let ci = captureStart(caps, cursor.c);
  let dHead = nextDelivery();
  const data: InspectorRow[] = [];
  while (data.length < limit && (dHead || ci < caps.length)) {
    const cHead = ci < caps.length ? caps[ci] : null;
    const takeCapture = cHead && (!dHead || newerFirst({ ms: cHead.ms, kind: 'capture', id: cHead.c.id }, { ms: timeOf(dHead.at), kind: 'delivery', id: dHead.id }) <= 0);
    if (takeCapture) {
      data.push(cHead.row);
      ci++;
    } else {
      data.push(dHead!);
      dHead = nextDelivery();
    }
  }
  const cNext = ci < caps.length ? caps[ci] : null;
  if (!dHead && !cNext) return { data, next_cursor: null };
  const next: FeedCursor = {
    d: dHead ? { t: 'at', id: dHead.id } : { t: 'end' },
    c: cNext ? { t: 'at', ms: cNext.ms, id: cNext.c.id } : { t: 'end' },
  };
  return { data, next_cursor: encodeCursor(next) };
}
