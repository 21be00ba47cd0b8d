// The delivery engine: wires the parts that deliver. The outbox (outbox.ts) hands it
// each delivery once a commit has made it durable; the scheduler (scheduler.ts) says
// which is due and allowed to start; one attempt (attempt.ts) signs, sends and
// classifies; the outbox records the outcome and ends finished deliveries; the flush
// policy (flush-policy.ts) says when that reaches the disk. At-least-once: a delivery
// is logged as ended only after its attempt ended, made durable by a write nobody waits
// for, so a crash before it only causes a redelivery, which receivers deduplicate on webhook-id.
// Guards against one slow subscriber starving the others (per-subscription limit, see
// queues.ts) and against a subscriber stalling shutdown (bounded stop).
import { systemClock, type Clock } from '../clock.js';
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery } from '../store/schema.js';
import type { DeliveryEngine, DeliveryEngineDeps, Flying, Sub } from './engine-types.js';
import { HttpSender } from './http-sender.js';
import { Scheduler, type Job } from './scheduler.js';
import { SlowEndpoints } from './slow-endpoints.js';
import { Attempts, BODY_GONE, classify, type SentAttempt } from './attempt.js';
import { isSuccessStatus } from './retry-policy.js';
import { FlushPolicy } from './flush-policy.js';
import { NO_FAULTS, type FaultPlan } from './faults.js';
import type { OutboxListener, OutboxWork } from './outbox.js';
import type { DeliveryStatus } from '@shared/api-types.js';

export type { DeliveryEngineDeps, EndpointHealth } from './engine-types.js';

export function createDeliveryEngine(deps: DeliveryEngineDeps): DeliveryEngine {
  return new Engine(deps, deps.clock ?? systemClock);
}

class Engine implements DeliveryEngine, OutboxListener {
  private state: 'new' | 'running' | 'stopped' = 'new';
  private stopping: Promise<void> | null = null;
  private pumping = false;
  private idleWaiters: (() => void)[] = [];
  private readonly sender: HttpSender;
  private readonly sched: Scheduler;
  private readonly attempts: Attempts;
  private readonly flush: FlushPolicy;
  private readonly slow = new SlowEndpoints();

  constructor(
    private readonly deps: DeliveryEngineDeps,
    private readonly clock: Clock,
  ) {
    const { config, store } = deps;
    this.sender = new HttpSender({
      timeoutMs: config.deliveryTimeoutMs,
      connections: config.deliveryConcurrency,
      policy: { allowPrivate: config.allowPrivateTargets },
    });
    this.sched = new Scheduler({
      maxTotal: config.deliveryConcurrency,
      maxPerSubscription: config.deliveryConcurrencyPerSubscription,
      slotsFor: (id) => this.slow.slotsFor(id),
      clock,
      onDue: () => this.pump(),
    });
    this.attempts = new Attempts(this.sender, clock, deps.redirector);
    this.flush = new FlushPolicy({ clock, backlog: () => deps.outbox.size, write: () => store.commitLater() });
    deps.outbox.listen(this);
    // A failed write makes the store reload its last good state: changes since that write
    // are gone. Start over from what is stored; an attempt in flight may then be
    // repeated, which at-least-once allows.
    store.onReload(() => {
      this.sched.reset();
      if (this.state === 'running') this.admit(deps.outbox.stored());
    });
  }

  start(): void {
    if (this.state !== 'new') return;
    this.state = 'running';
    this.admit(this.deps.outbox.stored());
  }

  inFlight(): number {
    return this.sched.active;
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  // ---- what the outbox tells us ----

  added(work: OutboxWork[]): void {
    if (this.state === 'running') this.admit(work);
  }

  again(work: OutboxWork): void {
    // An unknown one is still on its way here (its own commit), or the engine is not running.
    if (this.state === 'running' && this.sched.redeliver(work)) this.pump();
  }

  cancelled(subscriptionId: string): void {
    const deleted = !this.deps.store.subscriptions.has(subscriptionId);
    for (const job of this.sched.forSubscription(subscriptionId)) {
      // In flight: its outcome is logged when it ends, marked cancelled (or skipped) there.
      if (job.state === 'inflight') {
        job.cancelled = deleted;
        if (deleted) this.sched.drop(job);
      } else this.cancel(job, deleted ? 'cancelled' : 'skipped');
    }
    if (deleted) this.attempts.forget(subscriptionId);
    this.slow.forget(subscriptionId);
  }

  // ---- the work ----

  private admit(work: OutboxWork[]): void {
    for (const w of work) this.sched.admit(w);
    this.pump();
  }

  /** Starts as many attempts as the limits allow. */
  private pump(): void {
    // Re-entrant calls (an attempt that ends synchronously) leave the work to the outer loop.
    if (this.state !== 'running' || this.pumping) return;
    this.pumping = true;
    try {
      for (let job = this.sched.take(); job; job = this.sched.take()) void this.run(job);
    } finally {
      this.pumping = false;
    }
  }

  /** Starts `job`'s attempt: at once when it needs no waiting (the usual case: no promise made), else through runLater. */
  private run(job: Job): void {
    const { store, outbox } = this.deps;
    let later = false;
    try {
      const sub = store.subscriptions.get(job.row.subscription_id);
      // Deleted (or disabled), and the outbox's cancellation has not reached us yet.
      if (!sub) return this.cancel(job);
      if (sub.status === 'disabled') return this.cancel(job, 'skipped');
      const body = outbox.event(job.row.event_id)?.body;
      later = true;
      if (body === undefined) return void this.runLater(job, sub);
      const plan = this.deps.faults?.plan(sub.public_id, job.attempts + 1) ?? NO_FAULTS;
      // The tunnel's state as the attempt started and as it ended: down at either, a failure is the tunnel's.
      const ctx: Flying = { job, sub, offline: this.deps.tunnelOffline?.(sub.url) === true };
      if (!this.attempts.start(job.row, sub, body, this.slow.isSlow(sub.public_id), plan, this.landed, ctx))
        void this.runLater(job, sub, body, plan, ctx.offline);
    } catch (err) {
      later = false;
      this.failed(job, err);
    } finally {
      if (!later) this.after(job);
    }
  }

  /** run() for an attempt that waits first: for its body read back from the history, or a fault's delay, reorder window or duplicate. */
  private async runLater(job: Job, sub: Sub, body?: string, plan?: FaultPlan, offline?: boolean): Promise<void> {
    let sent: SentAttempt;
    try {
      body ??= await this.deps.outbox.loggedBody(job.row.event_id);
      plan ??= this.deps.faults?.plan(sub.public_id, job.attempts + 1) ?? NO_FAULTS;
      offline ??= this.deps.tunnelOffline?.(sub.url) === true;
      sent = await this.attempts.send(job.row, sub, body, this.slow.isSlow(sub.public_id), plan);
    } catch (err) {
      this.failed(job, err);
      return this.after(job);
    }
    this.landed(sent, { job, sub, offline });
  }

  /** An attempt ended: its outcome recorded, then the next ones started. */
  private readonly landed = (sent: SentAttempt, { job, sub, offline }: Flying): void => {
    try {
      this.slow.note(sub.public_id, sent.result.timedOut === true);
      // Only a failure is marked, so a success never asks again.
      const down = !answeredOk(sent) && (offline || this.deps.tunnelOffline?.(sub.url) === true);
      this.complete(job, sent, down);
    } catch (err) {
      this.failed(job, err);
    } finally {
      this.after(job);
    }
  };

  private failed(job: Job, err: unknown): void {
    // A defect (the sender never throws); the delivery stays owed, so a restart retries it.
    console.error('[delivery] attempt failed unexpectedly:', err);
    this.sched.drop(job);
  }

  /** `job`'s turn is over (its attempt ended, or it never started): its slot is free for the next. */
  private after(job: Job): void {
    this.sched.finished(job);
    // Waiters first: read at every end, so its optimized code never meets it for the first time when the engine goes idle.
    if (this.idleWaiters.length > 0 && this.sched.active === 0) for (const w of this.idleWaiters.splice(0)) w();
    this.pump();
  }

  /** Records an ended attempt and settles its delivery; `tunnelOffline`: it failed while the tunnel it went through was down. */
  private complete(job: Job, sent: SentAttempt, tunnelOffline: boolean): void {
    const { outbox, config } = this.deps;
    const row = job.row;
    const attempt = job.attempts + 1;
    // Cancelled: told so, or its row left the store while it was in flight (the cancellation is on its way).
    const cancelled = job.cancelled || (!job.detached && (!this.sched.owns(job) || !outbox.has(row)));
    const disabled = this.deps.store.subscriptions.get(row.subscription_id)?.status === 'disabled';
    const o = classify(attempt, sent.result, config.retrySchedule, { cancelled, again: job.again, disabled }, this.clock.now());
    job.again = false;
    job.attempts = attempt;
    const { result, startedAt } = sent;
    const { succeeded, slowDown } = o;
    // One object, built once: the attempt log reads it field by field.
    outbox.logAttempt({
      row,
      attempt,
      url: sent.url,
      startedAt,
      headers: sent.headers,
      body: sent.body,
      result,
      faults: sent.faults,
      succeeded,
      status: o.status,
      nextAt: o.nextAt,
      rule: o.rule,
      detail: o.detail,
      slowDown,
      tunnelOffline,
    });
    if (slowDown) this.sched.slowDown(row.subscription_id);
    if (cancelled) this.sched.drop(job);
    else if (!job.detached) {
      if (o.nextAt === null) {
        this.sched.drop(job);
        outbox.finish(row);
      } else {
        job.dueAt = o.nextAt;
        this.sched.place(job);
      }
      this.flush.changed();
    }
    this.emit(row, o.status);
    // Last: a disabling it causes ends this subscription's other deliveries (skipped), this one's fate being settled above.
    if (!cancelled && !disabled && result.error !== BODY_GONE)
      this.deps.health?.attempted(row.subscription_id, { succeeded, gone: o.disable, at: startedAt });
  }

  private cancel(job: Job, as: 'cancelled' | 'skipped' = 'cancelled'): void {
    this.sched.drop(job);
    this.deps.outbox.finish(job.row);
    this.deps.outbox.markEnded(job.row.id, as);
    this.flush.changed();
    this.emit(job.row, as);
  }

  private emit(row: DeepReadonly<PendingDelivery>, status: DeliveryStatus): void {
    this.deps.bus.emit({
      kind: 'delivery',
      company_id: row.company_id,
      id: row.id,
      subscription_id: row.subscription_id,
      status,
      document_id: row.document_id,
    });
  }

  /** Resolves when no attempt is in flight, or after `ms` of real time. */
  private waitIdle(ms: number): Promise<void> {
    if (this.sched.active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      // Real time: shutdown is bounded in the world's time, whatever the service's clock says.
      const t = systemClock.setTimeout(resolve, ms);
      this.idleWaiters.push(() => {
        systemClock.clearTimeout(t);
        resolve();
      });
    });
  }

  private async shutdown(): Promise<void> {
    const wasRunning = this.state === 'running';
    this.state = 'stopped';
    this.sched.pause();
    // Attempts end by themselves within the delivery timeout; allow that, then cut them off.
    await this.waitIdle(this.deps.config.deliveryTimeoutMs + 1000);
    if (this.sched.active > 0) {
      this.sender.abortAll();
      await this.waitIdle(2000);
    }
    this.flush.stop();
    // Never started: nothing of ours to persist (and the store may not even be open).
    if (wasRunning) await this.deps.store.commit();
    await this.sender.close();
  }
}

/** The attempt got a 2xx (what the retry policy calls a success). */
function answeredOk(sent: SentAttempt): boolean {
  const res = sent.result.response;
  return res !== null && isSuccessStatus(res.status);
}
