// One attempt of a delivery: sign it (Standard Webhooks, with a fresh webhook-timestamp
// from the service's clock), send it (HttpSender), and say what its outcome means for
// the delivery (the retry policy). No store and no history here: the engine records
// what comes out.
import { systemClock, type Clock } from '../clock.js';
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery, SubscriptionRecord } from '../store/schema.js';
import { generateSecret, signingKey, webhookHeaders } from './signing.js';
import type { HmacKey } from './hmac-key.js';
import { liveSecrets } from './secret-rotation.js';
import { NO_FAULTS, type FaultPlan } from './faults.js';
import { ReorderWindow } from './reorder-window.js';
import type { Redirector } from './redirector.js';
import { decideAfterAttempt } from './retry-policy.js';
import type { SendListener, SendResult } from './http-sender.js';
import { BodyBytes } from './body-bytes.js';
import type { AttemptRule, DeliveryStatus } from '@shared/api-types.js';

/** What sends a request (HttpSender). Never rejects. */
export interface Sender {
  send(url: string, headers: Record<string, string>, body: Buffer, slow?: boolean): Promise<SendResult>;
  /** send() told to `listener(result, ctx)` in a later microtask instead of a promise. */
  start<C>(url: string, headers: Record<string, string>, body: Buffer, slow: boolean, listener: SendListener<C>, ctx: C): void;
}

/** One attempt as it was made. */
export interface SentAttempt {
  /** Epoch ms on the service's clock. */
  startedAt: number;
  headers: Record<string, string>;
  /** The body as sent ('' when the event body was gone and nothing was sent). */
  body: string;
  result: SendResult;
  /** Where it went: the subscription's URL, or a redirecting one of ours (the redirect fault). */
  url: string;
  /** The deliberate faults it carried. */
  faults: FaultPlan['names'];
}

/** Told an attempt that Attempts.start started, once it ended, with the caller's context. */
export type SentListener<C> = (sent: SentAttempt, ctx: C) => void;

/** An attempt under way from Attempts.start: the SentAttempt it becomes, its caller's context and listener. */
class Flight implements SentAttempt {
  result: SendResult = NO_RESULT;
  constructor(
    readonly startedAt: number,
    readonly headers: Record<string, string>,
    readonly body: string,
    readonly url: string,
    readonly faults: FaultPlan['names'],
    readonly ctx: unknown,
    readonly listener: SentListener<unknown>,
  ) {}
}

const NO_RESULT: SendResult = { durationMs: 0, response: null, error: 'not ended yet' };

const landed: SendListener<Flight> = (result, flight) => {
  flight.result = result;
  flight.listener(flight, flight.ctx);
};

export const BODY_GONE = 'The event body is no longer stored; nothing was sent.';

export class Attempts {
  private readonly keys = new Map<string, { secret: string; key: HmacKey }>();
  private readonly bodies = new BodyBytes();

  private readonly reorder = new ReorderWindow();

  constructor(
    private readonly sender: Sender,
    private readonly clock: Clock,
    private readonly redirector?: Redirector,
  ) {}

  /**
   * Signs and sends one attempt of `row` to `sub`, carrying the faults `plan` names;
   * `body` undefined: the event's body is gone; `slow`: the endpoint keeps timing out
   * (the shorter deadline). Never rejects.
   */
  async send(
    row: DeepReadonly<PendingDelivery>,
    sub: DeepReadonly<SubscriptionRecord>,
    body: string | undefined,
    slow = false,
    plan: FaultPlan = NO_FAULTS,
  ): Promise<SentAttempt> {
    const faults = plan.names;
    if (body === undefined) {
      const result = { durationMs: 0, response: null, error: BODY_GONE };
      return { startedAt: this.clock.now(), headers: {}, body: '', result, url: sub.url, faults: [] };
    }
    // Real time: a fault's delay and reorder window are what the endpoint waits, whatever the service's clock says.
    if (plan.delayMs > 0) await new Promise<void>((r) => systemClock.setTimeout(r, plan.delayMs));
    const done = plan.reorderWindowMs > 0 ? await this.reorder.hold(sub.public_id, plan.reorderWindowMs) : undefined;
    try {
      const startedAt = this.clock.now();
      const bytes = this.bodies.get(row.event_id, body);
      const headers = this.headersFor(row, sub, bytes, startedAt, plan);
      const url = plan.redirectStatus && this.redirector ? this.redirector.urlFor(sub.url, plan.redirectStatus) : sub.url;
      const result = await this.sender.send(url, headers, bytes, slow);
      // The same request again, at once: the endpoint must deduplicate on webhook-id.
      if (plan.duplicate) await this.sender.send(sub.url, headers, bytes, slow);
      return { startedAt, headers, body, result, url, faults };
    } finally {
      done?.();
    }
  }

  /**
   * send() for an attempt that needs no waiting (no delay, reorder window or duplicate
   * in `plan`): started now, `listener(sent, ctx)` told once it ended (never from inside
   * this call), no promise made. False, with nothing started, for one that needs send().
   */
  start<C>(
    row: DeepReadonly<PendingDelivery>,
    sub: DeepReadonly<SubscriptionRecord>,
    body: string,
    slow: boolean,
    plan: FaultPlan,
    listener: SentListener<C>,
    ctx: C,
  ): boolean {
    if (plan.delayMs > 0 || plan.reorderWindowMs > 0 || plan.duplicate) return false;
    const startedAt = this.clock.now();
    const bytes = this.bodies.get(row.event_id, body);
    const headers = this.headersFor(row, sub, bytes, startedAt, plan);
    const url = plan.redirectStatus && this.redirector ? this.redirector.urlFor(sub.url, plan.redirectStatus) : sub.url;
    const flight = new Flight(startedAt, headers, body, url, plan.names, ctx, listener as SentListener<unknown>);
    this.sender.start(url, headers, bytes, slow, landed, flight);
    return true;
  }

  private headersFor(
    row: DeepReadonly<PendingDelivery>,
    sub: DeepReadonly<SubscriptionRecord>,
    bytes: Buffer,
    now: number,
    plan: FaultPlan,
  ): Record<string, string> {
    const timestamp = Math.floor(now / 1000) - plan.staleSeconds;
    const live = this.keysFor(sub, now);
    // rotation: as during a secret rotation, first a signature with a secret the endpoint does not have, then the right one(s).
    const secret = plan.wrongSecret ? generateSecret() : plan.rotation ? [generateSecret(), ...[live].flat()] : live;
    return webhookHeaders({ secret, msgId: row.id, timestamp, body: bytes });
  }

  /** Drops the cached key of a deleted subscription. */
  forget(subscriptionId: string): void {
    this.keys.delete(subscriptionId);
  }

  /** The keys a delivery is signed with at `now`: previous secrets still in their window (oldest first), then the current one. */
  private keysFor(sub: DeepReadonly<SubscriptionRecord>, now: number): HmacKey | HmacKey[] {
    const current = this.keyOf(sub.public_id, sub.secret_key);
    // The hot path: no rotation under way, nothing to allocate.
    if (!sub.previous_secrets || sub.previous_secrets.length === 0) return current;
    const live = liveSecrets(sub, now);
    if (live.length === 1) return current;
    return live.map((s) => (s.role === 'current' ? current : this.keyOf(`${sub.public_id} ${s.secret_key}`, s.secret_key)));
  }

  private keyOf(cacheKey: string, secret: string): HmacKey {
    const cached = this.keys.get(cacheKey);
    if (cached && cached.secret === secret) return cached.key;
    const key = signingKey(secret);
    if (this.keys.size > 10_000) this.keys.clear();
    this.keys.set(cacheKey, { secret, key });
    return key;
  }
}

/** What an ended attempt means for its delivery. */
export interface AttemptOutcome {
  /** The attempt itself got a 2xx. */
  succeeded: boolean;
  status: DeliveryStatus;
  /** When the next attempt is due (epoch ms), or null when none follows. */
  nextAt: number | null;
  /** Which rule applied, in a code and in words (the attempt log). */
  rule: AttemptRule;
  detail: string;
  /** 429/502/504: the subscription's sending is slowed down. */
  slowDown: boolean;
  /** 410: the subscription is to be disabled at once. */
  disable: boolean;
}

/** Where the delivery stands apart from the answer: cancelled (subscription deleted), redelivered in flight (`again`), subscription disabled. */
export interface AttemptContext {
  cancelled: boolean;
  again: boolean;
  disabled: boolean;
}

/**
 * `attempt` is the 1-based number of the attempt that ended at `now`. A cancelled
 * delivery gets no further attempt whatever the outcome; one redelivered while this
 * attempt was in flight (`again`) goes again at once; one whose subscription is
 * disabled (now, or by this very answer: 410) is kept as skipped unless it succeeded.
 */
export function classify(
  attempt: number,
  result: SendResult,
  schedule: readonly number[],
  ctx: AttemptContext,
  now: number,
): AttemptOutcome {
  const res = result.response;
  const outcome = res
    ? { kind: 'response' as const, status: res.status, retryAfter: res.headers['retry-after'] }
    : { kind: 'error' as const, message: result.error ?? '' };
  const d = decideAfterAttempt(attempt, outcome, schedule, now);
  const succeeded = d.kind === 'succeeded';
  // One object whatever the case (this runs once per attempt).
  const o: AttemptOutcome = {
    succeeded,
    status: 'pending',
    nextAt: null,
    rule: d.rule,
    detail: d.detail,
    slowDown: d.slowDown,
    disable: d.disable,
  };
  if (ctx.cancelled) o.status = 'cancelled';
  else if (d.disable) o.status = 'failed';
  else if (ctx.disabled && !succeeded) {
    o.status = 'skipped';
    o.rule = 'disabled';
    o.detail = `${d.detail.split(':')[0]}: the subscription is disabled; kept as skipped`;
  } else if (ctx.again) o.nextAt = now;
  else if (d.kind === 'retry') o.nextAt = now + d.delayMs;
  else o.status = d.kind;
  return o;
}
