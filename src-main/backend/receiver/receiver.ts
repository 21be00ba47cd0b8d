// The webhook receiver: an Express app (never listening itself; the composition root
// binds it on its own loopback listener, the only one a tunnel exposes) that serves
// ONLY inbox paths, `/in/<inbox_id>` and anything below. Every request there is
// captured (raw bytes), verified, and answered by the inbox's response mode.
// Guards against: anything but inboxes being reachable through the tunnel (every other
// path is a JSON 404), oversize bodies (1 MiB, then 413), and the main store growing
// with captures (they live in capture-store.ts, not in data.json).
import express from 'express';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { BackendConfig } from '../config.js';
import type { ChangeBus } from '../bus.js';
import type { Store } from '../store/store.js';
import { systemClock, type Clock } from '../clock.js';
import type { HistoryLog } from '../store/history-types.js';
import { errorWriter, notFoundHandler } from '../http/error-writer.js';
import { pageAfter } from '../http/paging.js';
import { wellFormedPath } from '../http/path-check.js';
import { newId } from '../ids.js';
import { CaptureStore } from './capture-store.js';
import { PendingAnswers, readBody } from './inbound.js';
import { InboxRegistry } from './inbox-registry.js';
import { decideResponse } from './response-mode.js';
import { computeVerdict, type SentRecord } from './verdict.js';
import { DEFAULT_LIMITS, type Capture, type ReceiverLimits } from './types.js';
import type { Page } from '@shared/api-types.js';
import type { CaptureResponse, CaptureSummary } from '@shared/receiver-types.js';

export type { InboxView } from './inbox-registry.js';

export interface ReceiverDeps {
  store: Store;
  bus: ChangeBus;
  config: BackendConfig;
  localUrl: () => string;
  /** The delivery log: lets verdicts tell "wrong secret" from "body changed" for local deliveries. */
  history?: HistoryLog;
  /** The tunnel's public URL when online. */
  publicUrl?: () => string | undefined;
  limits?: Partial<ReceiverLimits>;
  /** The service's clock (arrival times, the verdict's timestamp window, exports, re-signed replays). */
  clock?: Clock;
}

export interface Receiver {
  app: express.Express;
  readonly clock: Clock;
  /** Reads inbox definitions and their captures; call once the store is open. */
  load(): void;
  readonly inboxes: InboxRegistry;
  readonly captures: CaptureStore;
  listCaptures(inboxId: string, page: { limit: number; starting_after?: string }): Page<CaptureSummary>;
  getCapture(id: string): Capture | undefined;
  /** Adds a capture made elsewhere (import); false if its id is already kept or its inbox is unknown. */
  addCapture(c: Capture): boolean;
  /** Waits until every capture so far is on disk. */
  flush(): Promise<void>;
  /** Ends delayed and hung answers (hung sockets are destroyed). */
  close(): void;
}

const INBOX_PATH = /^\/in\/(inb_[0-9A-Za-z]+)(?:\/.*)?$/;

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

export function summarize(c: Capture): CaptureSummary {
  const ct = c.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? null;
  return {
    id: c.id,
    inbox_id: c.inbox_id,
    received_at: c.received_at,
    method: c.method,
    path: c.path,
    size: c.size,
    content_type: ct,
    webhook_id: c.webhook_id,
    event_type: c.event_type,
    verdict: c.verdict?.reason ?? null,
    duplicate: c.duplicate,
    attempt_for_id: c.attempt_for_id,
    response_status: c.response.status,
  };
}

export function createReceiver(deps: ReceiverDeps): Receiver {
  const limits: ReceiverLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const { store, bus } = deps;
  const clock = deps.clock ?? systemClock;
  const history = deps.history;
  const publicUrl = deps.publicUrl ?? (() => undefined);
  const captures = new CaptureStore(join(deps.config.dataDir, 'captures'), limits);
  const inboxes = new InboxRegistry({ store, bus, captures, limits, clock, localUrl: deps.localUrl, publicUrl: () => publicUrl() });
  const pending = new PendingAnswers();
  let unsubscribe: (() => void) | undefined;

  const lookupSent = async (webhookId: string): Promise<SentRecord | undefined> => {
    const d = history?.getDelivery(webhookId);
    if (!d || !history) return undefined;
    const sub = store.subscriptions.get(d.subscription_id);
    const body = (await history.getEventBody(d.event_id)) ?? store.pendingEvents.get(d.event_id)?.body;
    return { subscription_id: d.subscription_id, secret: sub?.secret_key, body };
  };

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.use(async (req, res, next) => {
    const m = INBOX_PATH.exec(req.path);
    const inbox = m ? inboxes.record(m[1]) : undefined;
    if (!inbox) return next();
    const arrived = clock.now();
    let read;
    try {
      read = await readBody(req, limits.bodyLimit);
    } catch {
      return; // the sender went away mid-body: nothing to capture or answer
    }
    const id = newId('cap');
    const webhookId = header(req.headers, 'webhook-id') || null;
    const counters = inboxes.counters(inbox.id);
    const attempt = webhookId ? counters.seen(webhookId) : 1;
    const modeAttempt = counters.modeAttempt(webhookId ?? '');
    let response: CaptureResponse;
    if (read.tooLarge) {
      const error = {
        error: { code: 'payload_too_large', message: `The body is larger than ${limits.bodyLimit} bytes; it was not kept or verified.` },
      };
      response = {
        status: 413,
        headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
        body: JSON.stringify(error),
        delay_ms: 0,
        hang: false,
      };
    } else {
      response = decideResponse(inbox.response, modeAttempt, id);
    }
    if (!response.hang) response.headers['x-countersign-capture'] = id;
    const lower: Record<string, string | undefined> = {};
    for (const name of Object.keys(req.headers)) lower[name] = header(req.headers, name);
    const verdict = read.tooLarge
      ? null
      : await computeVerdict({
          headers: lower,
          body: read.body,
          now: Math.floor(arrived / 1000),
          candidates: inboxes.candidates(inbox),
          lookupSent,
        });
    const rawHeaders: [string, string][] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) rawHeaders.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    const capture: Capture = {
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
    // The inbox may have been deleted while the verdict was computed.
    if (inboxes.record(inbox.id)) {
      captures.add(capture);
      bus.emit({ kind: 'capture', inbox_id: inbox.id, id });
    }
    pending.send(res, response, limits.maxHangMs, (ms) => {
      // Kept in memory only: the file has the capture as it arrived.
      capture.response.sender_gave_up_after_ms = ms;
      bus.emit({ kind: 'capture', inbox_id: inbox.id, id });
    });
  });

  // Any other path: 400 if it is malformed, else 404; errors leave only through the one
  // error writer (http/error-writer.ts: no stack trace, no path).
  app.use(wellFormedPath, notFoundHandler('Webhook inboxes answer at /in/<inbox_id>.'));
  app.use(errorWriter('receiver'));

  return {
    app,
    clock,
    inboxes,
    captures,
    load() {
      inboxes.load();
      unsubscribe?.();
      // Remember every public URL the tunnel had, to find subscriptions left on an old one.
      unsubscribe = bus.subscribe((change) => {
        if (change.kind === 'tunnel') inboxes.notePublicUrl(publicUrl());
      });
    },
    listCaptures(inboxId, page) {
      // Newest first.
      const { data, has_more } = pageAfter([...captures.list(inboxId)].reverse(), (c) => c.id, page, 'a capture of this inbox');
      return { data: data.map(summarize), has_more };
    },
    getCapture: (id) => captures.get(id),
    addCapture(c) {
      if (!inboxes.record(c.inbox_id) || captures.get(c.id)) return false;
      if (c.webhook_id) inboxes.counters(c.inbox_id).seen(c.webhook_id);
      captures.add(c);
      bus.emit({ kind: 'capture', inbox_id: c.inbox_id, id: c.id });
      return true;
    },
    flush: () => captures.flush(),
    close() {
      pending.closeAll();
      unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}
