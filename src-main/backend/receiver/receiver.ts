// The webhook receiver: an Express app (never listening itself; the composition root
// binds it on its own loopback listener, the only one a tunnel exposes) that serves
// ONLY inbox paths, `/in/<inbox_id>` and anything below. Every request there is
// captured (raw bytes), verified, and answered by the inbox's response mode.
// Guards against: anything but inboxes being reachable through the tunnel (every other
// path is a JSON 404), oversize bodies (1 MiB by default, then 413), a flood or slow
// senders exhausting memory or slots (admission.ts, inbox-handler.ts, server.ts: 503 with
// Retry-After, timeouts), and the main store growing with captures (they live in
// capture-store.ts, not in data.json).
import express from 'express';
import { join } from 'node:path';
import type { BackendConfig } from '../config.js';
import type { ChangeBus } from '../bus.js';
import type { Store } from '../store/store.js';
import { systemClock, type Clock } from '../clock.js';
import type { HistoryLog } from '../store/history-types.js';
import { errorWriter, notFoundHandler } from '../http/error-writer.js';
import { pageAfter } from '../http/paging.js';
import { wellFormedPath } from '../http/path-check.js';
import { Admission } from './admission.js';
import { CaptureStore } from './capture-store.js';
import { PendingAnswers } from './inbound.js';
import { inboxHandler } from './inbox-handler.js';
import { InboxRegistry } from './inbox-registry.js';
import type { SentRecord } from './verdict.js';
import { DEFAULT_LIMITS, type Capture, type ReceiverLimits } from './types.js';
import type { Page } from '@shared/api-types.js';
import type { CaptureSummary } from '@shared/receiver-types.js';

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
  /** The limits in force (the listener's own are applied by server.ts). */
  readonly limits: ReceiverLimits;
  /** What requests hold now (open requests, bodies in flight). */
  readonly admission: Admission;
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
    ...(c.forward ? { forward_status: c.forward.status, forward_error: c.forward.error } : {}),
  };
}

/** The limits the configuration sets (COUNTERSIGN_RECEIVER_*); headers must come within 10 s or the whole request's time, if shorter. */
function limitsOf(config: BackendConfig): Partial<ReceiverLimits> {
  const r = config.receiver;
  return {
    bodyLimit: r.bodyLimit,
    memoryBudget: r.memoryBudget,
    maxOpenPerInbox: r.maxOpenPerInbox,
    forwardToAnyHost: r.forwardToAnyHost,
    requestTimeoutMs: r.requestTimeoutMs,
    headersTimeoutMs: Math.min(DEFAULT_LIMITS.headersTimeoutMs, r.requestTimeoutMs),
  };
}

export function createReceiver(deps: ReceiverDeps): Receiver {
  const limits: ReceiverLimits = { ...DEFAULT_LIMITS, ...limitsOf(deps.config), ...deps.limits };
  const { store, bus } = deps;
  const clock = deps.clock ?? systemClock;
  const history = deps.history;
  const publicUrl = deps.publicUrl ?? (() => undefined);
  const captures = new CaptureStore(join(deps.config.dataDir, 'captures'), limits);
  const inboxes = new InboxRegistry({ store, bus, captures, limits, clock, localUrl: deps.localUrl, publicUrl: () => publicUrl() });
  const pending = new PendingAnswers();
  const admission = new Admission(limits, (inboxId) => captures.queuedBytes(inboxId));
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

  app.use(inboxHandler({ bus, clock, limits, inboxes, captures, admission, pending, lookupSent }));

  // Any other path: 400 if it is malformed, else 404; errors leave only through the one
  // error writer (http/error-writer.ts: no stack trace, no path).
  app.use(wellFormedPath, notFoundHandler('Webhook inboxes answer at /in/<inbox_id>.'));
  app.use(errorWriter('receiver'));

  return {
    app,
    clock,
    limits,
    admission,
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
