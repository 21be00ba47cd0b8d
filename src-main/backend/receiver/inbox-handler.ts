// One request to an inbox, from arrival to answer: admit it (or refuse it: 503 with
// Retry-After when the inbox or the receiver has no room), read its body under the
// limits, verify it, keep it as a capture, and answer as the inbox's response mode says.
// Guards against a sender holding memory or slots it should not: the ticket from
// admission.ts is held from arrival until the answer is over, on every path, and the
// body's bytes count against the memory budget until the capture store takes them.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { ChangeBus } from '../bus.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { isRefusal, RETRY_AFTER_S, type Admission, type Refusal, type Ticket } from './admission.js';
import { forward } from './forward.js';
import type { CaptureStore } from './capture-store.js';
import { readBody, type PendingAnswers, type ReadBody } from './inbound.js';
import type { InboxCounters, InboxRegistry } from './inbox-registry.js';
import { decideResponse } from './response-mode.js';
import { computeVerdict, type SentRecord } from './verdict.js';
import type { Capture, InboxRecord, ReceiverLimits } from './types.js';
import type { CaptureResponse } from '@shared/receiver-types.js';

export interface InboxHandlerDeps {
  bus: ChangeBus;
  clock: Clock;
  limits: ReceiverLimits;
  inboxes: InboxRegistry;
  captures: CaptureStore;
  admission: Admission;
  pending: PendingAnswers;
  lookupSent: (webhookId: string) => Promise<SentRecord | undefined>;
}

const INBOX_PATH = /^\/in\/(inb_[0-9A-Za-z]+)(?:\/.*)?$/;
const JSON_TYPE = 'application/json; charset=utf-8';

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function eventTypeOf(body: Buffer, contentType: string | undefined): string | null {
  if (!contentType?.toLowerCase().includes('json') || body.length === 0) return null;
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    const t = v && typeof v === 'object' ? (v as { type?: unknown }).type : undefined;
    return typeof t === 'string' ? t.slice(0, 200) : null;
  } catch {
    return null;
  }
}

function declaredLength(req: IncomingMessage): number | undefined {
  const n = Number(req.headers['content-length']);
  return req.headers['content-length'] !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** 503 in the one error shape; nothing was captured. `close`: the body was not read to its end. */
function refuse(res: ServerResponse, refusal: Refusal, close: boolean): void {
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
  res.writeHead(503, {
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(body),
    'retry-after': String(RETRY_AFTER_S),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
}

function tooLargeAnswer(limit: number): CaptureResponse {
  const error = { error: { code: 'payload_too_large', message: `The body is larger than ${limit} bytes; it was not kept or verified.` } };
  return {
    status: 413,
    headers: { 'content-type': JSON_TYPE, connection: 'close' },
    body: JSON.stringify(error),
    delay_ms: 0,
    hang: false,
  };
}

/**
 * The attempt number the inbox's response mode sees: counted only under a mode that reads it
 * (fail_first_n). A new mode counts afresh (inbox-registry.ts), so what another mode would
 * count is never read; not counting it spares a map of up to 20,000 webhook-ids an inbox.
 */
function modeAttempt(inbox: InboxRecord, counters: InboxCounters, webhookId: string | null): number {
  return inbox.response.mode === 'fail_first_n' ? counters.modeAttempt(webhookId ?? '') : 1;
}

/** Builds the capture of a request whose body has been read. */
async function captureOf(deps: InboxHandlerDeps, req: Request, inbox: InboxRecord, read: ReadBody, arrived: number): Promise<Capture> {
  const id = newId('cap');
  const webhookId = header(req.headers, 'webhook-id') || null;
  const counters = deps.inboxes.counters(inbox.id);
  const attempt = webhookId ? counters.seen(webhookId) : 1;
  const response = read.tooLarge
    ? tooLargeAnswer(deps.limits.bodyLimit)
    : decideResponse(inbox.response, modeAttempt(inbox, counters, webhookId), id);
  if (!response.hang) response.headers['x-countersign-capture'] = id;
  const lower: Record<string, string | undefined> = {};
  for (const name of Object.keys(req.headers)) lower[name] = header(req.headers, name);
  const verdict = read.tooLarge
    ? null
    : await computeVerdict({
        headers: lower,
        body: read.body,
        now: Math.floor(arrived / 1000),
        candidates: deps.inboxes.candidates(inbox),
        lookupSent: deps.lookupSent,
      });
  const rawHeaders: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) rawHeaders.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
  return {
    id,
    inbox_id: inbox.id,
    received_at: new Date(arrived).toISOString(),
    method: req.method,
    path: req.originalUrl,
    headers: rawHeaders,
    body: read.body,
    size: read.size,
    body_truncated: read.tooLarge,
    remote_address: req.socket.remoteAddress ?? null,
    webhook_id: webhookId,
    event_type: eventTypeOf(read.body, lower['content-type']),
    attempt_for_id: attempt,
    duplicate: attempt > 1,
    verdict,
    response,
  };
}

/** Forward mode: the app answers the sender; its answer joins the capture. */
async function forwardCapture(deps: InboxHandlerDeps, res: ServerResponse, capture: Capture, ticket: Ticket, target: string) {
  const out = await forward(
    {
      target,
      inboxId: capture.inbox_id,
      captureId: capture.id,
      method: capture.method,
      originalUrl: capture.path,
      headers: capture.headers,
      body: capture.body,
    },
    res,
    deps.limits,
    // What is kept of the app's answer counts against the memory budget, beside the request's body.
    (kept) => ticket.grow(capture.body.length + kept),
  );
  capture.response = out.response;
  capture.forward = out.forward;
}

/** The receiver's handler for `/in/<inbox_id>…`; any other path goes to `next`. */
export function inboxHandler(deps: InboxHandlerDeps): RequestHandler {
  const { bus, clock, limits, inboxes, captures, admission, pending } = deps;
  return async (req, res, next) => {
    const m = INBOX_PATH.exec(req.path);
    const inbox = m ? inboxes.record(m[1]) : undefined;
    if (!inbox) return next();
    const arrived = clock.now();
    const ticket = admission.admit(inbox.id, declaredLength(req));
    if (isRefusal(ticket)) return refuse(res, ticket, false);
    res.once('close', ticket.close);
    let read: ReadBody;
    try {
      read = await readBody(req, limits.bodyLimit, ticket.grow);
    } catch {
      return ticket.close(); // the sender went away mid-body: nothing to capture or answer
    }
    if (read.overBudget) {
      ticket.close();
      return refuse(res, ticket.refusal!, true);
    }
    const capture = await captureOf(deps, req, inbox, read, arrived);
    const forwarding = inbox.response.mode === 'forward' && !read.tooLarge;
    if (forwarding) await forwardCapture(deps, res, capture, ticket, (inbox.response as { url: string }).url);
    // The inbox may have been deleted while the verdict was computed.
    if (inboxes.record(inbox.id)) {
      captures.add(capture);
      bus.emit({ kind: 'capture', inbox_id: inbox.id, id: capture.id });
    }
    ticket.settle();
    if (forwarding) return;
    pending.send(res, capture.response, limits.maxHangMs, (ms) => {
      // Kept in memory only: the file has the capture as it arrived.
      capture.response.sender_gave_up_after_ms = ms;
      bus.emit({ kind: 'capture', inbox_id: inbox.id, id: capture.id });
    });
  };
}
