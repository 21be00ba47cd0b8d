// One inspector row in full: a delivery with every attempt (headers, bodies, timing)
// and where it landed; a capture with its headers, body and verdict; and the "pair",
// what a local delivery sent beside what the inbox received. Guards against leaks
// across companies (a delivery of another company is "not found", exactly like an
// unknown one) and against secrets in answers (none is read here: verdicts carry
// fingerprints only). Captured bytes go out as text or base64, never interpreted.
import { notFound } from '../../errors.js';
import type { AttemptRecord } from '../../store/history-types.js';
import type { Capture } from '../../receiver/types.js';
import { bodyFields } from '../../receiver/export-import.js';
import { summarize } from '../../receiver/receiver.js';
import { attemptView, deliveryView } from '../../domain/views.js';
import { captureRow, deliveryRow, type RowContext } from './rows.js';
import type { CaptureDetail, CapturePair, DeliveryDetail } from '@shared/inspector-types.js';

function header(c: Capture, name: string): string | undefined {
  return c.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** Every capture, in any inbox, with this webhook-id (oldest first). */
function landedCaptures(ctx: RowContext, webhookId: string): Capture[] {
  const out: Capture[] = [];
  for (const inbox of ctx.receiver.inboxes.all()) {
    for (const c of ctx.receiver.captures.list(inbox.id)) if (c.webhook_id === webhookId) out.push(c);
  }
  return out.sort((a, b) => (a.received_at < b.received_at ? -1 : a.received_at > b.received_at ? 1 : 0));
}

function inboxName(ctx: RowContext, id: string): string | null {
  return ctx.receiver.inboxes.record(id)?.name ?? null;
}

export async function deliveryDetail(ctx: RowContext, id: string): Promise<DeliveryDetail> {
  const d = ctx.history.getDelivery(id);
  if (!d || d.company_id !== ctx.companyId) throw notFound('delivery');
  const [attempts, storedBody] = await Promise.all([ctx.history.getAttempts(id), ctx.history.getEventBody(d.event_id)]);
  const body = storedBody ?? ctx.store.pendingEvents.get(d.event_id)?.body ?? null;
  const sub = ctx.store.subscriptions.get(d.subscription_id);
  const event = ctx.history.getEvent(d.event_id);
  return {
    row: deliveryRow(ctx, d),
    delivery: deliveryView(d),
    event: event ? { id: event.id, type: event.type, timestamp: event.timestamp, document_id: event.document_id } : null,
    event_body: body,
    subscription: sub && sub.company_id === ctx.companyId ? { public_id: sub.public_id, url: sub.url, type: sub.type } : null,
    attempts: attempts.map(attemptView),
    landed: landedCaptures(ctx, d.id).map((c) => ({ ...summarize(c), inbox_name: inboxName(ctx, c.inbox_id) })),
  };
}

function captureOr404(ctx: RowContext, id: string): Capture {
  const c = ctx.receiver.getCapture(id);
  if (!c) throw notFound('capture');
  return c;
}

export function captureDetail(ctx: RowContext, id: string): CaptureDetail {
  const c = captureOr404(ctx, id);
  const { body, ...rest } = c;
  const fields = bodyFields(body);
  const d = ctx.deliveryOf(c);
  return {
    row: captureRow(ctx, c),
    capture: { ...rest, ...fields, body_encoding: fields.body_text === null ? 'base64' : 'utf8' },
    inbox: { id: c.inbox_id, name: inboxName(ctx, c.inbox_id) },
    delivery: d ? deliveryView(d) : null,
  };
}

/**
 * The attempt that made this capture: the one whose webhook-timestamp and signature the
 * capture carries (exact), else the one with the same timestamp, else the last attempt
 * made before the capture arrived (a replay, or a request changed on the way: compared
 * with what was last sent). Attempts are logged once answered, so a capture can arrive
 * before its attempt is in the log; with no attempt before it there is no match yet.
 */
export function matchAttempt(c: Capture, attempts: AttemptRecord[]): { attempt: AttemptRecord; exact: boolean } | null {
  const ts = header(c, 'webhook-timestamp');
  const sig = header(c, 'webhook-signature');
  const exact = attempts.find((a) => a.request.headers['webhook-timestamp'] === ts && a.request.headers['webhook-signature'] === sig);
  if (exact) return { attempt: exact, exact: true };
  const sameTs = attempts.filter((a) => a.request.headers['webhook-timestamp'] === ts);
  if (sameTs.length > 0) return { attempt: sameTs[sameTs.length - 1], exact: false };
  const arrived = Date.parse(c.received_at);
  const before = attempts.filter((a) => Date.parse(a.started_at) <= arrived);
  return before.length > 0 ? { attempt: before[before.length - 1], exact: false } : null;
}

export async function capturePair(ctx: RowContext, id: string): Promise<CapturePair> {
  const c = captureOr404(ctx, id);
  const d = ctx.deliveryOf(c);
  if (!d) throw notFound('local delivery for this capture (it was not sent by this service, or by another company)');
  const attempts = await ctx.history.getAttempts(d.id);
  const m = matchAttempt(c, attempts);
  const fields = bodyFields(c.body);
  return {
    capture_id: c.id,
    delivery_id: d.id,
    inbox: { id: c.inbox_id, name: inboxName(ctx, c.inbox_id) },
    match: m ? (m.exact ? 'exact' : 'nearest') : 'none',
    note: m ? null : 'The attempt that sent this request is not in the delivery log yet (it is logged once answered).',
    sent: m
      ? {
          attempt: m.attempt.attempt,
          at: m.attempt.started_at,
          method: m.attempt.request.method,
          url: m.attempt.request.url,
          headers: Object.entries(m.attempt.request.headers),
          body: m.attempt.request.body,
        }
      : null,
    received: {
      at: c.received_at,
      method: c.method,
      path: c.path,
      headers: c.headers,
      ...fields,
      body_encoding: fields.body_text === null ? 'base64' : 'utf8',
      size: c.size,
      body_truncated: c.body_truncated,
    },
  };
}
