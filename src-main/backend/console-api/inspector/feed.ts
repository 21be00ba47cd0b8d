// The inspector's merged list: the session company's deliveries and every inbox's
// captures, merged newest first by time (a delivery's creation, a capture's arrival),
// filtered, and paged with an opaque cursor. The cursor holds, for each of the two
// streams, the key (time and id) of the next item to show, so a page never repeats or
// skips a row when new rows arrive above it; new rows reach the page through the live
// stream. Guards against a crafted cursor: it is parsed and checked, a bad one is a 422.
import { validationError } from '../../errors.js';
import type { DeliverySummary } from '../../store/history-types.js';
import type { Capture } from '../../receiver/types.js';
import type { FeedPage, InspectorRow } from '@shared/inspector-types.js';
import { captureRow, deliveryRow, matches, newerFirst, timeOf, type InspectorFilter, type RowContext } from './rows.js';

/** Where a stream resumes: from its newest item, at a key (inclusive), or nowhere. */
type Pos = { t: 'top' } | { t: 'at'; ms: number; id: string } | { t: 'end' };

export interface FeedCursor {
  d: Pos;
  c: Pos;
}

export const TOP: FeedCursor = { d: { t: 'top' }, c: { t: 'top' } };

export function encodeCursor(c: FeedCursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

const badCursor = () => validationError([{ field: 'cursor', message: 'is not a cursor this list gave' }]);

function isPos(p: unknown): p is Pos {
  const o = p as { t?: unknown; id?: unknown; ms?: unknown } | null;
  if (!o || typeof o !== 'object') return false;
  if (o.t === 'top' || o.t === 'end') return true;
  return o.t === 'at' && typeof o.id === 'string' && o.id.length <= 200 && typeof o.ms === 'number' && Number.isFinite(o.ms);
}

export function decodeCursor(raw: string | undefined): FeedCursor {
  if (!raw) return TOP;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const o = v as { d?: unknown; c?: unknown } | null;
  if (!o || !isPos(o.d) || !isPos(o.c)) throw badCursor();
  return { d: o.d, c: o.c };
}

/** The company's deliveries, newest first by creation time, from `pos` on (unfiltered: the caller filters). */
export function* deliveries(ctx: RowContext, pos: Pos = { t: 'top' }): Generator<{ d: DeliverySummary; ms: number }> {
  if (pos.t === 'end') return;
  const from = pos.t === 'at' ? { ms: pos.ms, id: pos.id } : undefined;
  for (const item of ctx.history.deliveriesByTime(ctx.companyId, from)) if (item.d.company_id === ctx.companyId) yield item;
}

interface CaptureItem {
  c: Capture;
  row: InspectorRow;
  ms: number;
}

/** Every capture that passes the filters, newest first. */
export function filteredCaptures(ctx: RowContext, f: InspectorFilter): CaptureItem[] {
  if (f.kind === 'delivery') return [];
  if (f.outcome && ['succeeded', 'failed', 'pending', 'cancelled', 'skipped'].includes(f.outcome)) return [];
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

function captureStart(list: CaptureItem[], pos: Pos): number {
  if (pos.t === 'top') return 0;
  if (pos.t === 'end') return list.length;
  const at = { ms: pos.ms, kind: 'capture', id: pos.id };
  const i = list.findIndex((x) => newerFirst({ ms: x.ms, kind: 'capture', id: x.c.id }, at) >= 0);
  return i === -1 ? list.length : i;
}

export function feedPage(ctx: RowContext, f: InspectorFilter, cursor: FeedCursor, limit: number): FeedPage {
  const wantDeliveries = f.kind !== 'capture' && !(f.outcome && ['verified', 'unverified', 'duplicate'].includes(f.outcome));
  const dIt = wantDeliveries ? deliveries(ctx, cursor.d) : null;
  const nextDelivery = (): { row: InspectorRow; ms: number } | null => {
    if (!dIt) return null;
    for (let n = dIt.next(); !n.done; n = dIt.next()) {
      const row = deliveryRow(ctx, n.value.d);
      if (matches(row, f)) return { row, ms: n.value.ms };
    }
    return null;
  };
  const caps = filteredCaptures(ctx, f);
  let ci = captureStart(caps, cursor.c);
  let dHead = nextDelivery();
  const data: InspectorRow[] = [];
  while (data.length < limit && (dHead || ci < caps.length)) {
    const cHead = ci < caps.length ? caps[ci] : null;
    const takeCapture =
      cHead &&
      (!dHead || newerFirst({ ms: cHead.ms, kind: 'capture', id: cHead.c.id }, { ms: dHead.ms, kind: 'delivery', id: dHead.row.id }) <= 0);
    if (takeCapture) {
      data.push(cHead.row);
      ci++;
    } else {
      data.push(dHead!.row);
      dHead = nextDelivery();
    }
  }
  const cNext = ci < caps.length ? caps[ci] : null;
  if (!dHead && !cNext) return { data, next_cursor: null };
  const next: FeedCursor = {
    d: dHead ? { t: 'at', ms: dHead.ms, id: dHead.row.id } : { t: 'end' },
    c: cNext ? { t: 'at', ms: cNext.ms, id: cNext.c.id } : { t: 'end' },
  };
  return { data, next_cursor: encodeCursor(next) };
}
