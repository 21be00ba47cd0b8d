// The delivery engine: works the stored schedule (store.data.pending_deliveries),
// sending each due delivery with a fresh Standard Webhooks signature, logging every
// attempt to the history log and moving the schedule on (retry, success, failure).
// At-least-once: a row leaves the store only after its attempt ended; the write that
// removes it is a group commit nobody waits for, so a crash before it only causes a
// redelivery, which receivers deduplicate on webhook-id.
// Guards against one slow subscriber starving the others (per-subscription limit, see
// queues.ts) and against a subscriber stalling shutdown (bounded stop).
import type { KeyObject } from 'node:crypto';
import type { BackendConfig } from '../config.js';
import type { ChangeBus } from '../bus.js';
import { ApiError, notFound } from '../errors.js';
import type { Store } from '../store/store.js';
import type { PendingDelivery, SubscriptionRecord } from '../store/schema.js';
import type { DeliverySummary, HistoryLog } from '../store/history-types.js';
import type { DeliveryEngine } from './engine-types.js';
import { signingKey, webhookHeaders } from './signing.js';
import { decideAfterAttempt } from './retry-policy.js';
import { HttpSender, type SendResult } from './http-sender.js';
import { PendingTables } from './pending-tables.js';
import { logAttempt } from './attempt-log.js';
import { Scheduler, type Job } from './scheduler.js';
import { BodyBytes } from './body-bytes.js';
import type { DeliveryStatus } from '@shared/api-types.js';

export interface DeliveryEngineDeps {
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  config: BackendConfig;
  /** Epoch ms; a test may pass its own clock. */
  now?: () => number;
}

/** Pauses before finished rows leave the schedule in memory, and on disk (see flushSoon). */
const COMPACT_MS = 10;
const WRITE_MIN_MS = 50;
const WRITE_MAX_MS = 1000;

export function createDeliveryEngine(deps: DeliveryEngineDeps): DeliveryEngine {
  const { store, history, bus, config } = deps;
  const now = deps.now ?? Date.now;
  const sender = new HttpSender({ timeoutMs: config.deliveryTimeoutMs, connections: config.deliveryConcurrency });
  const tables = new PendingTables(store);
  const sched = new Scheduler({
    maxTotal: config.deliveryConcurrency,
    maxPerSubscription: config.deliveryConcurrencyPerSubscription,
    now,
    onDue: () => pump(),
  });
  const keys = new Map<string, { secret: string; key: KeyObject }>();
  const bodyBytes = new BodyBytes();
  let started = false;
  let stopped = false;
  let pumping = false;
  let compactTimer: NodeJS.Timeout | null = null;
  let writeTimer: NodeJS.Timeout | null = null;
  /** Set once stop() has made its final write: nothing may touch the store after that. */
  let finalized = false;
  let idleWaiters: (() => void)[] = [];
  let stopping: Promise<void> | null = null;

  function keyFor(sub: SubscriptionRecord): KeyObject {
    const cached = keys.get(sub.public_id);
    if (cached && cached.secret === sub.secret_key) return cached.key;
    const key = signingKey(sub.secret_key);
    keys.set(sub.public_id, { secret: sub.secret_key, key });
    return key;
  }

  const admit = (row: PendingDelivery) => sched.admit(row);
  const scan = () => tables.scanDeliveries(admit);

  /**
   * A stored row can be behind the history log, which is written within milliseconds
   * while the store's removal or update waits for the next batch: after a crash (or a
   * reload), trust the log for what already happened.
   */
  function admitStored(row: PendingDelivery): void {
    const logged = history.getDelivery(row.id);
    if (logged && logged.attempts > row.attempts) {
      if (logged.status !== 'pending') {
        tables.finish(row); // its last attempt ended it
        flushSoon();
        return;
      }
      row.attempts = logged.attempts;
      if (logged.next_attempt_at !== null) row.next_attempt_at = logged.next_attempt_at;
      store.put('pending_deliveries', row);
    }
    sched.admit(row);
  }

  // A failed write makes the store reload its last good state: rows become new objects
  // and changes since that write are gone. Start over from what is stored; an attempt in
  // flight may then be repeated, which at-least-once allows.
  store.reloadListeners.push(() => {
    sched.reset();
    tables.reset();
    if (started && !stopped) {
      tables.scanDeliveries(admitStored);
      pump();
    }
  });

  /** Starts as many attempts as the limits allow. */
  function pump(): void {
    // Re-entrant calls (an attempt that ends synchronously) leave the work to the outer loop.
    if (stopped || !started || pumping) return;
    pumping = true;
    try {
      for (let job = sched.take(); job; job = sched.take()) void run(job);
    } finally {
      pumping = false;
    }
  }

  /**
   * Finished rows leave the stored schedule in batches: from memory every few
   * milliseconds once they are a good share of it (one pass over the array then costs
   * a few rows per finished row, where a pass every 10 ms over a backlog of tens of
   * thousands cost more than sending), and to disk by a background write whose pause
   * grows with the schedule's length: 50 ms for a few rows, up to 1 s for tens of
   * thousands; that write compacts whatever is left. A crash in between at worst
   * repeats those attempts (at-least-once; see admitStored for why it usually does not).
   */
  function flushSoon(): void {
    if (finalized) return;
    if (!compactTimer) {
      compactTimer = setTimeout(() => {
        compactTimer = null;
        if (!finalized && tables.worthCompacting()) tables.compact();
      }, COMPACT_MS);
      compactTimer.unref();
    }
    if (!writeTimer) {
      writeTimer = setTimeout(
        () => {
          writeTimer = null;
          if (finalized) return;
          tables.compact();
          store.commitChangesSoon();
        },
        Math.min(WRITE_MAX_MS, WRITE_MIN_MS + store.data.pending_deliveries.length / 20),
      );
      writeTimer.unref();
    }
  }

  function clearFlushTimers(): void {
    if (compactTimer) clearTimeout(compactTimer);
    if (writeTimer) clearTimeout(writeTimer);
    compactTimer = writeTimer = null;
  }

  function emit(row: PendingDelivery, status: DeliveryStatus): void {
    bus.emit({
      kind: 'delivery',
      company_id: row.company_id,
      id: row.id,
      subscription_id: row.subscription_id,
      status,
      document_id: row.document_id,
    });
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
        sched.drop(job);
        tables.finish(row);
        markCancelled(row);
        flushSoon();
        return;
      }
      let body = tables.event(row.event_id)?.body;
      if (body === undefined) body = await history.getEventBody(row.event_id);
      const startedAt = now();
      let headers: Record<string, string> = {};
      let result: SendResult;
      if (body === undefined) {
        result = { durationMs: 0, response: null, error: 'The event body is no longer stored; nothing was sent.' };
        body = '';
      } else {
        const bytes = bodyBytes.get(row.event_id, body);
        headers = webhookHeaders({ secret: keyFor(sub), msgId: row.id, timestamp: Math.floor(startedAt / 1000), body: bytes });
        result = await sender.send(sub.url, headers, bytes);
      }
      complete(job, sub.url, startedAt, headers, body, result);
    } catch (err) {
      // A defect (the sender never throws); the row stays stored, so a restart retries it.
      console.error('[delivery] attempt failed unexpectedly:', err);
      sched.drop(job);
    } finally {
      sched.finished(job);
      if (sched.active === 0 && idleWaiters.length > 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
      pump();
    }
  }

  function complete(job: Job, url: string, startedAt: number, headers: Record<string, string>, body: string, result: SendResult): void {
    const row = job.row;
    const attempt = row.attempts + 1;
    const cancelled = job.cancelled || (!job.detached && !sched.owns(job));
    const outcome = result.response
      ? { kind: 'response' as const, status: result.response.status }
      : { kind: 'error' as const, message: result.error ?? '' };
    let decision = decideAfterAttempt(attempt, outcome, config.retrySchedule);
    const succeeded = decision.kind === 'succeeded';
    if (job.again && !cancelled) decision = { kind: 'retry', delayMs: 0 };
    job.again = false;
    const nextAt = cancelled || decision.kind !== 'retry' ? null : now() + decision.delayMs;
    const status: DeliveryStatus = cancelled ? 'cancelled' : decision.kind === 'retry' ? 'pending' : decision.kind;
    logAttempt(history, { row, attempt, url, startedAt, headers, body, result, succeeded, status, nextAt });
    row.attempts = attempt;
    if (!cancelled && !job.detached) {
      if (nextAt === null) {
        sched.drop(job);
        tables.finish(row);
      } else {
        row.next_attempt_at = nextAt;
        store.put('pending_deliveries', row);
        sched.place(job);
      }
      flushSoon();
    }
    emit(row, status);
  }

  function waitIdle(ms: number): Promise<void> {
    if (sched.active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      idleWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** Puts a delivery's event back in the live store from history, if it left it. */
  async function ensureEvent(summary: DeliverySummary): Promise<void> {
    if (tables.event(summary.event_id)) return;
    const body = await history.getEventBody(summary.event_id);
    if (body === undefined) throw new ApiError('not_found', 'The event of this delivery is no longer kept, so it cannot be sent again.');
    if (tables.event(summary.event_id)) return; // restored meanwhile
    const ev = history.getEvent(summary.event_id);
    const restored = {
      id: summary.event_id,
      company_id: summary.company_id,
      type: summary.event_type,
      timestamp: ev?.timestamp ?? summary.created_at,
      document_id: summary.document_id,
      body,
    };
    store.data.pending_events.push(restored);
    store.put('pending_events', restored);
  }

  async function stopEngine(): Promise<void> {
    const wasRunning = started && !stopped;
    stopped = true;
    sched.pause();
    // Attempts end by themselves within the delivery timeout; allow that, then cut them off.
    await waitIdle(config.deliveryTimeoutMs + 1000);
    if (sched.active > 0) {
      sender.abortAll();
      await waitIdle(2000);
    }
    finalized = true;
    clearFlushTimers();
    // Never started: nothing of ours to persist (and the store may not even be open).
    if (wasRunning) {
      tables.compact();
      await store.commitChanges();
    }
    await sender.close();
  }

  return {
    start() {
      if (started) return;
      started = true;
      tables.dropOrphanEvents();
      tables.scanDeliveries(admitStored);
      pump();
    },

    wake() {
      if (!started || stopped) return;
      scan();
      pump();
    },

    cancelSubscription(subscriptionId: string) {
      for (const job of sched.forSubscription(subscriptionId)) {
        job.cancelled = true;
        sched.drop(job);
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
      if (started) scan();
      if (!sched.get(deliveryId)) await ensureEvent(summary);
      let job = sched.get(deliveryId);
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
        job = sched.hold(row);
      } else {
        job.row.next_attempt_at = t;
        if (job.state === 'inflight') job.again = true;
        else if (job.state === 'waiting') sched.makeReady(job);
      }
      const updated: DeliverySummary = { ...summary, url: sub.url, status: 'pending', attempts: job.row.attempts, next_attempt_at: t };
      history.recordDelivery(updated);
      store.put('pending_deliveries', job.row);
      await store.commitChanges();
      // Sent only once the row is durable, like every other delivery.
      if (job.state === 'held' && sched.owns(job)) sched.makeReady(job);
      emit(job.row, 'pending');
      pump();
      return updated;
    },

    inFlight: () => sched.active,

    stop() {
      stopping ??= stopEngine();
      return stopping;
    },
  };
}
