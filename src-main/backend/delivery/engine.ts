// The delivery engine: works the stored schedule (store.data.pending_deliveries),
// sending each due delivery with a fresh Standard Webhooks signature, logging every
// attempt to the history log and moving the schedule on (retry, success, failure).
// At-least-once: a row leaves the store only after its attempt ended; the write that
// removes it is a group commit nobody waits for, so a crash before it only causes a
// redelivery, which receivers deduplicate on webhook-id.
// Guards against one slow subscriber starving the others (per-subscription limit in
// FairQueue) and against a subscriber stalling shutdown (bounded stop).
import type { KeyObject } from 'node:crypto';
import type { BackendConfig } from '../config.js';
import type { ChangeBus } from '../bus.js';
import { ApiError, notFound } from '../errors.js';
import type { Store } from '../store/store.js';
import type { DeliveryStatus, PendingDelivery, SubscriptionRecord } from '../store/schema.js';
import type { DeliverySummary, HistoryLog } from '../store/history-types.js';
import type { DeliveryEngine } from './engine-types.js';
import { signingKey, webhookHeaders } from './signing.js';
import { decideAfterAttempt } from './retry-policy.js';
import { HttpSender, type SendResult } from './http-sender.js';
import { DueHeap, FairQueue } from './queues.js';
import { PendingTables } from './pending-tables.js';

export interface DeliveryEngineDeps {
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  config: BackendConfig;
  /** Epoch ms; a test may pass its own clock. */
  now?: () => number;
}

/** One delivery the engine knows: its stored row plus where it is in the pipeline. */
interface Job {
  row: PendingDelivery;
  state: 'waiting' | 'ready' | 'inflight' | 'held';
  /** Its subscription was deleted: discard the outcome. */
  cancelled: boolean;
  /** Redelivery asked while in flight: go again right after. */
  again: boolean;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export function createDeliveryEngine(deps: DeliveryEngineDeps): DeliveryEngine {
  const { store, history, bus, config } = deps;
  const now = deps.now ?? Date.now;
  const schedule = config.retrySchedule;
  const sender = new HttpSender({ timeoutMs: config.deliveryTimeoutMs, connections: config.deliveryConcurrency });
  const tables = new PendingTables(store);
  const known = new Map<string, Job>();
  const due = new DueHeap<Job>();
  const ready = new FairQueue<Job>(config.deliveryConcurrency, config.deliveryConcurrencyPerSubscription);
  const keys = new Map<string, { secret: string; key: KeyObject }>();
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let flushQueued = false;
  let pumping = false;
  /** Set once stop() has made its final write: nothing may touch the store after that. */
  let finalized = false;
  let idleWaiters: (() => void)[] = [];

  const isLive = (job: Job) => job.state === 'ready' && known.get(job.row.id) === job;

  function keyFor(sub: SubscriptionRecord): KeyObject {
    const cached = keys.get(sub.public_id);
    if (cached && cached.secret === sub.secret_key) return cached.key;
    const key = signingKey(sub.secret_key);
    keys.set(sub.public_id, { secret: sub.secret_key, key });
    return key;
  }

  function makeReady(job: Job): void {
    job.state = 'ready';
    ready.push(job.row.subscription_id, job);
  }

  function place(job: Job): void {
    if (job.row.next_attempt_at <= now()) return makeReady(job);
    job.state = 'waiting';
    due.push(job.row.next_attempt_at, job);
  }

  function admit(row: PendingDelivery): void {
    const job = known.get(row.id);
    if (job) {
      // Same id, other object: the row was replaced in the store; follow the stored one.
      if (job.row !== row && job.state !== 'inflight') job.row = row;
      return;
    }
    const fresh: Job = { row, state: 'waiting', cancelled: false, again: false };
    known.set(row.id, fresh);
    place(fresh);
  }

  /** Starts as many attempts as the limits allow. */
  function pump(): void {
    // Re-entrant calls (an attempt that ends synchronously) leave the work to the outer loop.
    if (stopped || !started || pumping) return;
    pumping = true;
    try {
      for (;;) {
        const next = ready.take(isLive);
        if (!next) break;
        const job = next.item;
        job.state = 'inflight';
        void run(job);
      }
    } finally {
      pumping = false;
    }
  }

  function arm(): void {
    if (stopped) return;
    while (due.size > 0) {
      const top = due.peek()!;
      const job = top.item;
      if (job.state === 'waiting' && known.get(job.row.id) === job && job.row.next_attempt_at === top.at) break;
      due.pop(); // stale: moved, cancelled or already made ready
    }
    const top = due.peek();
    if (!top) return;
    if (timer && timerAt <= top.at) return;
    if (timer) clearTimeout(timer);
    timerAt = top.at;
    timer = setTimeout(onTimer, Math.min(Math.max(0, top.at - now()), MAX_TIMER_MS));
    timer.unref();
  }

  function onTimer(): void {
    timer = null;
    timerAt = Infinity;
    const t = now();
    while (due.size > 0 && due.peek()!.at <= t) {
      const { at, item: job } = due.pop()!;
      if (job.state === 'waiting' && known.get(job.row.id) === job && job.row.next_attempt_at === at) makeReady(job);
    }
    pump();
    arm();
  }

  /** Batches the removal of finished rows and one background write per tick, not per attempt. */
  function flushSoon(): void {
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(() => {
      flushQueued = false;
      if (finalized) return;
      tables.compact();
      store.commitSoon();
    });
  }

  function emit(row: PendingDelivery, status: string): void {
    bus.emit({ kind: 'delivery', company_id: row.company_id, id: row.id, subscription_id: row.subscription_id, status, document_id: row.document_id });
  }

  function markCancelled(row: PendingDelivery): void {
    const summary = history.getDelivery(row.id);
    if (summary && summary.status !== 'cancelled') history.recordDelivery({ ...summary, status: 'cancelled', next_attempt_at: null });
    emit(row, 'cancelled');
  }

  async function run(job: Job): Promise<void> {
    const row = job.row;
    try {
      const sub = store.subscriptions.get(row.subscription_id);
      if (!sub) {
        // Deleted, and the domain's cancelSubscription has not reached us yet.
        if (known.get(row.id) === job) known.delete(row.id);
        tables.finish(row);
        markCancelled(row);
        flushSoon();
        return;
      }
      let body = tables.event(row.event_id)?.body;
      if (body === undefined) body = await history.getEventBody(row.event_id);
      const attempt = row.attempts + 1;
      const startedAt = now();
      let headers: Record<string, string> = {};
      let result: SendResult;
      if (body === undefined) {
        result = { durationMs: 0, response: null, error: 'The event body is no longer stored; nothing was sent.' };
        body = '';
      } else {
        headers = webhookHeaders({ secret: keyFor(sub), msgId: row.id, timestamp: Math.floor(startedAt / 1000), body });
        result = await sender.send(sub.url, headers, body);
      }
      complete(job, sub, attempt, startedAt, headers, body, result);
    } catch (err) {
      // A defect (the sender itself never throws); keep the row so a restart retries it.
      console.error('[delivery] attempt failed unexpectedly:', err);
      if (known.get(row.id) === job) known.delete(row.id);
    } finally {
      ready.done(row.subscription_id);
      if (ready.active === 0 && idleWaiters.length > 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
      pump();
    }
  }

  function complete(job: Job, sub: SubscriptionRecord, attempt: number, startedAt: number, headers: Record<string, string>, body: string, result: SendResult): void {
    const row = job.row;
    const cancelled = job.cancelled || known.get(row.id) !== job;
    const outcome = result.response ? { kind: 'response' as const, status: result.response.status } : { kind: 'error' as const, message: result.error ?? '' };
    let decision = decideAfterAttempt(attempt, outcome, schedule);
    const succeeded = decision.kind === 'succeeded';
    if (job.again && !cancelled) decision = { kind: 'retry', delayMs: 0 };
    job.again = false;
    const nextAt = cancelled || decision.kind !== 'retry' ? null : now() + decision.delayMs;
    const status: DeliveryStatus = cancelled ? 'cancelled' : decision.kind === 'retry' ? 'pending' : decision.kind;
    history.recordAttempt({
      delivery_id: row.id,
      subscription_id: row.subscription_id,
      attempt,
      started_at: new Date(startedAt).toISOString(),
      duration_ms: result.durationMs,
      request: { method: 'POST', url: sub.url, headers, body },
      response: result.response,
      error: result.error,
      succeeded,
      next_attempt_at: nextAt,
    });
    row.attempts = attempt;
    history.recordDelivery({
      id: row.id,
      event_id: row.event_id,
      event_type: row.event_type,
      subscription_id: row.subscription_id,
      company_id: row.company_id,
      document_id: row.document_id,
      url: sub.url,
      status,
      attempts: attempt,
      created_at: row.created_at,
      last_attempt_at: new Date(startedAt).toISOString(),
      last_status_code: result.response ? result.response.status : null,
      last_error: result.error,
      last_duration_ms: result.durationMs,
      next_attempt_at: nextAt,
    });
    if (!cancelled) {
      if (nextAt === null) {
        known.delete(row.id);
        tables.finish(row);
      } else {
        row.next_attempt_at = nextAt;
        place(job);
        arm();
      }
      flushSoon();
    }
    emit(row, status);
  }

  function waitIdle(ms: number): Promise<void> {
    if (ready.active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      idleWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  return {
    start() {
      if (started) return;
      started = true;
      stopped = false;
      tables.dropOrphanEvents();
      tables.scanDeliveries(admit);
      pump();
      arm();
    },

    wake() {
      if (!started || stopped) return;
      tables.scanDeliveries(admit);
      pump();
      arm();
    },

    cancelSubscription(subscriptionId: string) {
      for (const job of [...known.values()]) {
        if (job.row.subscription_id !== subscriptionId) continue;
        job.cancelled = true;
        known.delete(job.row.id);
        tables.finish(job.row);
        // In flight: its outcome is logged when it ends, marked cancelled there.
        if (job.state !== 'inflight') markCancelled(job.row);
      }
      keys.delete(subscriptionId);
      flushSoon();
    },

    async redeliver(deliveryId: string): Promise<DeliverySummary> {
      const summary = history.getDelivery(deliveryId);
      if (!summary) throw notFound('delivery');
      const sub = store.subscriptions.get(summary.subscription_id);
      if (!sub) throw notFound('subscription');
      if (started) tables.scanDeliveries(admit);
      let job = known.get(deliveryId);
      if (!job && !tables.event(summary.event_id)) {
        // The event left the live store when its deliveries ended: bring it back from history.
        const body = await history.getEventBody(summary.event_id);
        if (body === undefined) throw new ApiError('not_found', 'The event of this delivery is no longer kept, so it cannot be sent again.');
        if (!tables.event(summary.event_id)) {
          const ev = history.getEvent(summary.event_id);
          store.data.pending_events.push({
            id: summary.event_id,
            company_id: summary.company_id,
            type: summary.event_type,
            timestamp: ev?.timestamp ?? summary.created_at,
            document_id: summary.document_id,
            body,
          });
        }
        job = known.get(deliveryId);
      }
      const t = now();
      if (!job) {
        const row: PendingDelivery = {
          id: summary.id,
          event_id: summary.event_id,
          subscription_id: summary.subscription_id,
          company_id: summary.company_id,
          event_type: summary.event_type,
          document_id: summary.document_id,
          attempts: summary.attempts,
          next_attempt_at: t,
          created_at: summary.created_at,
        };
        store.data.pending_deliveries.push(row);
        job = { row, state: 'held', cancelled: false, again: false };
        known.set(row.id, job);
      } else if (job.state === 'inflight') {
        job.again = true;
      } else if (job.state === 'waiting') {
        job.row.next_attempt_at = t;
        makeReady(job);
      } else {
        job.row.next_attempt_at = t;
      }
      const updated: DeliverySummary = { ...summary, url: sub.url, status: 'pending', attempts: job.row.attempts, next_attempt_at: t };
      history.recordDelivery(updated);
      await store.commit();
      // Sent only once the row is durable, like every other delivery.
      if (job.state === 'held' && known.get(deliveryId) === job) makeReady(job);
      emit(job.row, 'pending');
      pump();
      return updated;
    },

    inFlight: () => ready.active,

    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      // Attempts end by themselves within the delivery timeout; allow that, then cut them off.
      await waitIdle(config.deliveryTimeoutMs + 1000);
      if (ready.active > 0) {
        sender.abortAll();
        await waitIdle(2000);
      }
      finalized = true;
      tables.compact();
      await store.commit();
      await sender.close();
    },
  };
}
