// Where each known delivery stands: waiting for its due time (one timer for the
// earliest, over a heap), ready (fair queue per subscription), in flight, or held
// (a redelivery whose row is not durable yet). No I/O; everything here is rebuilt
// from the stored schedule on start.
import type { PendingDelivery } from '../store/schema.js';
import { DueHeap, FairQueue } from './queues.js';

export interface Job {
  row: PendingDelivery;
  state: 'waiting' | 'ready' | 'inflight' | 'held';
  /** Its subscription was deleted: the outcome of the attempt in flight is discarded. */
  cancelled: boolean;
  /** Redelivery asked while in flight: go again right after. */
  again: boolean;
  /** The store was reloaded while this was in flight: its row object is no longer the stored one. */
  detached?: boolean;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SchedulerOptions {
  maxTotal: number;
  maxPerSubscription: number;
  now: () => number;
  /** Called when waiting jobs became ready. */
  onDue: () => void;
}

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly due = new DueHeap<Job>();
  private readonly ready: FairQueue<Job>;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private paused = false;
  private readonly isLive = (job: Job) => job.state === 'ready' && this.jobs.get(job.row.id) === job;

  constructor(private readonly opts: SchedulerOptions) {
    this.ready = new FairQueue<Job>(opts.maxTotal, opts.maxPerSubscription);
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** True while `job` is the one the scheduler holds for its id (not cancelled or finished). */
  owns(job: Job): boolean {
    return this.jobs.get(job.row.id) === job;
  }

  /** Jobs in flight, across all subscriptions. */
  get active(): number {
    return this.ready.active;
  }

  /** Learns a stored row; a known id only follows a replaced row object. */
  admit(row: PendingDelivery): void {
    const job = this.jobs.get(row.id);
    if (job) {
      if (job.row !== row && job.state !== 'inflight') {
        job.row = row;
        // Its heap entry was keyed on the old row's due time: queue it again by the new one.
        if (job.state === 'waiting') this.place(job);
      }
      return;
    }
    const fresh: Job = { row, state: 'waiting', cancelled: false, again: false };
    this.jobs.set(row.id, fresh);
    this.place(fresh);
  }

  /** A row that must not be attempted before release() (not yet durable). */
  hold(row: PendingDelivery): Job {
    const job: Job = { row, state: 'held', cancelled: false, again: false };
    this.jobs.set(row.id, job);
    return job;
  }

  /** Queues a job by its row's next_attempt_at: ready now, or waiting under the timer. */
  place(job: Job): void {
    if (job.row.next_attempt_at <= this.opts.now()) return this.makeReady(job);
    job.state = 'waiting';
    this.due.push(job.row.next_attempt_at, job);
    this.arm();
  }

  makeReady(job: Job): void {
    job.state = 'ready';
    this.ready.push(job.row.subscription_id, job);
  }

  /** Forgets a job (finished or cancelled); any queue entry for it goes stale. */
  drop(job: Job): void {
    if (this.owns(job)) this.jobs.delete(job.row.id);
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
   * Forgets every job (the store reloaded its last good state, so the rows are new
   * objects, and some may be gone). Attempts in flight finish detached; the caller
   * then admits the stored rows afresh.
   */
  reset(): void {
    for (const job of this.jobs.values()) if (job.state === 'inflight') job.detached = true;
    this.jobs.clear();
  }

  /** Stops the timer for good (the engine is stopping). */
  pause(): void {
    this.paused = true;
    if (this.timer) clearTimeout(this.timer);
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
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = top.at;
    this.timer = setTimeout(this.onTimer, Math.min(Math.max(0, top.at - this.opts.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  private isWaiting(job: Job, at: number): boolean {
    return job.state === 'waiting' && this.owns(job) && job.row.next_attempt_at === at;
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    this.timerAt = Infinity;
    const t = this.opts.now();
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
