// Where each known delivery stands: waiting for its due time (one timer on the clock
// for the earliest, over a heap), ready (fair queue per subscription), or in flight.
// No I/O; everything here is rebuilt from the outbox on start.
import type { Clock, Timer } from '../clock.js';
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery } from '../store/schema.js';
import type { OutboxWork } from './outbox.js';
import { DueHeap, FairQueue } from './queues.js';

export interface Job {
  row: DeepReadonly<PendingDelivery>;
  /** Attempts made so far. */
  attempts: number;
  /** Epoch ms of the next attempt. */
  dueAt: number;
  state: 'waiting' | 'ready' | 'inflight';
  /** Its subscription was deleted: the outcome of the attempt in flight is discarded. */
  cancelled: boolean;
  /** Redelivery asked while in flight: go again right after. */
  again: boolean;
  /** The store was reloaded while this was in flight: the job was forgotten, the stored row admitted afresh. */
  detached?: boolean;
  /** The scheduler no longer holds it (finished, cancelled or forgotten): any queue entry for it is stale. */
  gone: boolean;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** After a 429, 502 or 504: one attempt at a time to that subscription for this long (service time). */
export const SLOW_DOWN_MS = 60_000;

export interface SchedulerOptions {
  maxTotal: number;
  maxPerSubscription: number;
  /** A lower limit for some subscriptions (endpoints that keep timing out). */
  slotsFor?: (subscriptionId: string) => number;
  clock: Clock;
  /** Called when waiting jobs became ready. */
  onDue: () => void;
}

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly due = new DueHeap<Job>();
  private readonly ready: FairQueue<Job>;
  private timer: Timer | null = null;
  private timerAt = Infinity;
  private paused = false;
  /** Subscriptions slowed down (429/502/504) until this time (epoch ms). */
  private readonly slowUntil = new Map<string, number>();
  private readonly isLive = (job: Job) => job.state === 'ready' && this.owns(job);

  constructor(private readonly opts: SchedulerOptions) {
    this.ready = new FairQueue<Job>(opts.maxTotal, opts.maxPerSubscription, (key) =>
      Math.min(opts.slotsFor?.(key) ?? Infinity, this.slowLimit(key)),
    );
  }

  /** One attempt at a time to this subscription for SLOW_DOWN_MS from now (after a 429, 502 or 504). */
  slowDown(subscriptionId: string): void {
    this.slowUntil.set(subscriptionId, this.opts.clock.now() + SLOW_DOWN_MS);
  }

  private slowLimit(subscriptionId: string): number {
    if (this.slowUntil.size === 0) return Infinity;
    const until = this.slowUntil.get(subscriptionId);
    if (until === undefined) return Infinity;
    if (until > this.opts.clock.now()) return 1;
    this.slowUntil.delete(subscriptionId);
    return Infinity;
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /**
   * True while `job` is the one the scheduler holds for its id (not cancelled or finished).
   * A flag on the job, not a lookup in `jobs` (tens of thousands of ids during a burst): it is asked at every take.
   */
  owns(job: Job): boolean {
    return !job.gone;
  }

  /** Jobs in flight, across all subscriptions. */
  get active(): number {
    return this.ready.active;
  }

  /**
   * Learns a delivery to attempt from `dueAt`. A known one (a redelivery) is brought
   * forward: one in flight goes again right after its attempt.
   */
  admit(work: OutboxWork): Job {
    const job = this.jobs.get(work.row.id);
    if (job) {
      if (job.state === 'inflight') job.again = true;
      else if (work.dueAt < job.dueAt) {
        job.dueAt = work.dueAt;
        if (job.state === 'waiting') this.place(job);
      }
      return job;
    }
    const fresh: Job = {
      row: work.row,
      attempts: work.attempts,
      dueAt: work.dueAt,
      state: 'waiting',
      cancelled: false,
      again: false,
      gone: false,
    };
    this.jobs.set(work.row.id, fresh);
    this.place(fresh);
    return fresh;
  }

  /** Queues a job by its dueAt: ready now, or waiting under the timer. */
  place(job: Job): void {
    if (job.dueAt <= this.opts.clock.now()) return this.makeReady(job);
    job.state = 'waiting';
    this.due.push(job.dueAt, job);
    this.arm();
  }

  makeReady(job: Job): void {
    job.state = 'ready';
    this.ready.push(job.row.subscription_id, job);
  }

  /** Forgets a job (finished or cancelled); any queue entry for it goes stale. */
  drop(job: Job): void {
    if (job.gone) return;
    job.gone = true;
    this.jobs.delete(job.row.id);
  }

  /** Jobs of one subscription, whatever their state. */
  forSubscription(subscriptionId: string): Job[] {
    const out: Job[] = [];
    for (const job of this.jobs.values()) if (job.row.subscription_id === subscriptionId) out.push(job);
    return out;
  }

  /** The next job the concurrency limits allow, now counted in flight until finished(). */
  take(): Job | undefined {
    const next = this.ready.take(this.isLive);
    if (!next) return undefined;
    next.item.state = 'inflight';
    return next.item;
  }

  finished(job: Job): void {
    this.ready.done(job.row.subscription_id);
  }

  /**
   * Forgets every job (the store reloaded its last good state, so some rows may be
   * gone). Attempts in flight finish detached; the caller then admits the stored rows afresh.
   */
  reset(): void {
    for (const job of this.jobs.values()) {
      if (job.state === 'inflight') job.detached = true;
      job.gone = true;
    }
    this.jobs.clear();
  }

  /** Stops the timer for good (the engine is stopping). */
  pause(): void {
    this.paused = true;
    this.opts.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  private arm(): void {
    if (this.paused) return;
    while (this.due.size > 0) {
      const top = this.due.peek()!;
      if (this.isWaiting(top.item, top.at)) break;
      this.due.pop(); // stale: moved, cancelled or already made ready
    }
    const top = this.due.peek();
    if (!top || (this.timer && this.timerAt <= top.at)) return;
    this.opts.clock.clearTimeout(this.timer);
    this.timerAt = top.at;
    this.timer = this.opts.clock.setTimeout(this.onTimer, Math.min(Math.max(0, top.at - this.opts.clock.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  private isWaiting(job: Job, at: number): boolean {
    return job.state === 'waiting' && this.owns(job) && job.dueAt === at;
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    this.timerAt = Infinity;
    const t = this.opts.clock.now();
    let any = false;
    while (this.due.size > 0 && this.due.peek()!.at <= t) {
      const { at, item } = this.due.pop()!;
      if (this.isWaiting(item, at)) {
        this.makeReady(item);
        any = true;
      }
    }
    this.arm();
    if (any) this.opts.onDue();
  };
}
