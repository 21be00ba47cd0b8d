// One attempt of a delivery: sign it (Standard Webhooks, with a fresh webhook-timestamp
// from the service's clock), send it (HttpSender), and say what its outcome means for
// the delivery (the retry policy). No store and no history here: the engine records
// what comes out.
import type { KeyObject } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery, SubscriptionRecord } from '../store/schema.js';
import { generateSecret, signPayload, signingKey, webhookHeaders } from './signing.js';
import { NO_FAULTS, type FaultPlan } from './faults.js';
import { ReorderWindow } from './reorder-window.js';
import type { Redirector } from './redirector.js';
import { decideAfterAttempt } from './retry-policy.js';
import type { SendResult } from './http-sender.js';
import { BodyBytes } from './body-bytes.js';
import type { DeliveryStatus } from '@shared/api-types.js';

/** What sends a request (HttpSender). Never rejects. */
export interface Sender {
  send(url: string, headers: Record<string, string>, body: Buffer, slow?: boolean): Promise<SendResult>;
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

export const BODY_GONE = 'The event body is no longer stored; nothing was sent.';

export class Attempts {
  private readonly keys = new Map<string, { secret: string; key: KeyObject }>();
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
      const headers = this.headersFor(row, sub, bytes, Math.floor(startedAt / 1000), plan);
      const url = plan.redirectStatus && this.redirector ? this.redirector.urlFor(sub.url, plan.redirectStatus) : sub.url;
      const result = await this.sender.send(url, headers, bytes, slow);
      // The same request again, at once: the endpoint must deduplicate on webhook-id.
      if (plan.duplicate) await this.sender.send(sub.url, headers, bytes, slow);
      return { startedAt, headers, body, result, url, faults };
    } finally {
      done?.();
    }
  }

  private headersFor(
    row: DeepReadonly<PendingDelivery>,
    sub: DeepReadonly<SubscriptionRecord>,
    bytes: Buffer,
    now: number,
    plan: FaultPlan,
  ): Record<string, string> {
    const timestamp = now - plan.staleSeconds;
    const secret = plan.wrongSecret ? generateSecret() : this.keyFor(sub);
    const headers = webhookHeaders({ secret, msgId: row.id, timestamp, body: bytes });
    if (plan.rotation) {
      // As during a secret rotation: a signature with a secret the endpoint no longer (or not yet) has, then the right one.
      const other = signPayload({ secret: generateSecret(), msgId: row.id, timestamp, body: bytes });
      headers['webhook-signature'] = `${other} ${headers['webhook-signature']}`;
    }
    return headers;
  }

  /** Drops the cached key of a deleted subscription. */
  forget(subscriptionId: string): void {
    this.keys.delete(subscriptionId);
  }

  private keyFor(sub: DeepReadonly<SubscriptionRecord>): KeyObject {
    const cached = this.keys.get(sub.public_id);
    if (cached && cached.secret === sub.secret_key) return cached.key;
    const key = signingKey(sub.secret_key);
    this.keys.set(sub.public_id, { secret: sub.secret_key, key });
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
}

/**
 * `attempt` is the 1-based number of the attempt that ended at `now`. A cancelled
 * delivery gets no further attempt whatever the outcome; one redelivered while this
 * attempt was in flight (`again`) goes again at once.
 */
export function classify(
  attempt: number,
  result: SendResult,
  schedule: readonly number[],
  cancelled: boolean,
  again: boolean,
  now: number,
): AttemptOutcome {
  const outcome = result.response
    ? { kind: 'response' as const, status: result.response.status }
    : { kind: 'error' as const, message: result.error ?? '' };
  const decision = decideAfterAttempt(attempt, outcome, schedule);
  const succeeded = decision.kind === 'succeeded';
  if (cancelled) return { succeeded, status: 'cancelled', nextAt: null };
  if (again) return { succeeded, status: 'pending', nextAt: now };
  if (decision.kind === 'retry') return { succeeded, status: 'pending', nextAt: now + decision.delayMs };
  return { succeeded, status: decision.kind, nextAt: null };
}
