// Where each known delivery stands: waiting for its due time (one timer on the clock
// for the earliest, over a heap), ready (fair queue per subscription), or in flight.
// No I/O; everything here is rebuilt from the outbox on start.
// A job is held by the queue it is in (and the set of those in flight), nothing else:
// no map by id. Finding one by id (a redelivery, a cancelled subscription, a reset) is
// rare and looks through the queues; a burst of fan-outs keeps tens of thousands of
// jobs queued, and a map entry per job was work at every admission and end, and memory
// the garbage collector walked.
import type { Clock, Timer } from '../clock.js';
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery } from '../store/schema.js';
import type { OutboxWork } from './outbox.js';
import { DueHeap, FairQueue } from './queues.js';

type JobState = 'waiting' | 'ready' | 'inflight';
const STATES: readonly JobState[] = ['waiting', 'ready', 'inflight'];
const CANCELLED = 4;
const AGAIN = 8;
const DETACHED = 16;
const GONE = 32;

/**
 * A delivery the scheduler holds. Its state and four flags share one small integer
 * (`bits`): a burst keeps tens of thousands of jobs queued, and four fields (72 bytes a
 * job with its due time's number box) instead of eight (105) is less for the garbage
 * collector to walk on every full collection.
 */
export class Job {
  private bits = 0;

  constructor(
    readonly row: DeepReadonly<PendingDelivery>,
    /** Attempts made so far. */
    public attempts: number,
    /** Epoch ms of the next attempt. */
    public dueAt: number,
  ) {}

  get state(): JobState {
    return STATES[this.bits & 3];
  }
  set state(s: JobState) {
    this.bits = (this.bits & ~3) | (s === 'waiting' ? 0 : s === 'ready' ? 1 : 2);
  }
  /** Its subscription was deleted: the outcome of the attempt in flight is discarded. */
  get cancelled(): boolean {
    return (this.bits & CANCELLED) !== 0;
  }
  set cancelled(v: boolean) {
    this.flag(CANCELLED, v);
  }
  /** Redelivery asked while in flight: go again right after. */
  get again(): boolean {
    return (this.bits & AGAIN) !== 0;
  }
  set again(v: boolean) {
    this.flag(AGAIN, v);
  }
  /** The store was reloaded while this was in flight: the job was forgotten, the stored row admitted afresh. */
  get detached(): boolean {
    return (this.bits & DETACHED) !== 0;
  }
  set detached(v: boolean) {
    this.flag(DETACHED, v);
  }
  /** The scheduler no longer holds it (finished, cancelled or forgotten): any queue entry for it is stale. */
  get gone(): boolean {
    return (this.bits & GONE) !== 0;
  }
  set gone(v: boolean) {
    this.flag(GONE, v);
  }

  private flag(bit: number, v: boolean): void {
    this.bits = v ? this.bits | bit : this.bits & ~bit;
  }
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
  private readonly inflight = new Set<Job>();
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

  /** The job held for this delivery id, if any (looks through every queue: for rare use). */
  get(id: string): Job | undefined {
    for (const job of this.held()) if (job.row.id === id) return job;
    return undefined;
  }

  /**
   * Every job held, once each: in flight, waiting (the heap's current entries) and ready
   * (the lanes' live entries). `subscriptionId`: only that subscription's.
   */
  private held(subscriptionId?: string): Set<Job> {
    const out = new Set<Job>();
    const mine = (job: Job) => subscriptionId === undefined || job.row.subscription_id === subscriptionId;
    for (const job of this.inflight) if (this.owns(job) && mine(job)) out.add(job);
    for (const { at, item } of this.due.entries()) if (this.isWaiting(item, at) && mine(item)) out.add(item);
    for (const job of this.ready.queued(subscriptionId)) if (this.isLive(job)) out.add(job);
    return out;
  }

  /**
   * True while `job` is the one the scheduler holds for its id (not cancelled or finished).
   * A flag on the job (no lookup by id): it is asked at every take.
   */
  owns(job: Job): boolean {
    return !job.gone;
  }

  /** Jobs in flight, across all subscriptions. */
  get active(): number {
    return this.ready.active;
  }

  /** Learns a delivery to attempt from `dueAt`, one it does not hold (new, or stored and not yet admitted). */
  admit(work: OutboxWork): Job {
    const fresh = new Job(work.row, work.attempts, work.dueAt);
    this.place(fresh);
    return fresh;
  }

  /**
   * A redelivery of a delivery it may hold: brought forward to `work.dueAt`, or, in
   * flight, to go again right after its attempt. Undefined when it holds none.
   */
  redeliver(work: OutboxWork): Job | undefined {
    const job = this.get(work.row.id);
    if (!job) return undefined;
    if (job.state === 'inflight') job.again = true;
    else if (work.dueAt < job.dueAt) {
      job.dueAt = work.dueAt;
      if (job.state === 'waiting') this.place(job);
    }
    return job;
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
    job.gone = true;
  }

  /** Jobs of one subscription, whatever their state. */
  forSubscription(subscriptionId: string): Job[] {
    return [...this.held(subscriptionId)];
  }

  /** The next job the concurrency limits allow, now counted in flight until finished(). */
  take(): Job | undefined {
    const next = this.ready.take(this.isLive);
    if (!next) return undefined;
    next.item.state = 'inflight';
    this.inflight.add(next.item);
    return next.item;
  }

  finished(job: Job): void {
    this.inflight.delete(job);
    this.ready.done(job.row.subscription_id);
  }

  /**
   * Forgets every job (the store reloaded its last good state, so some rows may be
   * gone). Attempts in flight finish detached; the caller then admits the stored rows afresh.
   */
  reset(): void {
    for (const job of this.held()) {
      if (job.state === 'inflight') job.detached = true;
      job.gone = true;
    }
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
