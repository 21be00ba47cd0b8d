// One attempt of a delivery: sign it (Standard Webhooks, with a fresh webhook-timestamp
// from the service's clock), send it (HttpSender), and say what its outcome means for
// the delivery (the retry policy). No store and no history here: the engine records
// what comes out.
import type { KeyObject } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery, SubscriptionRecord } from '../store/schema.js';
import { signingKey, webhookHeaders } from './signing.js';
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
}

export const BODY_GONE = 'The event body is no longer stored; nothing was sent.';

export class Attempts {
  private readonly keys = new Map<string, { secret: string; key: KeyObject }>();
  private readonly bodies = new BodyBytes();

  constructor(
    private readonly sender: Sender,
    private readonly clock: Clock,
  ) {}

  /**
   * Signs and sends one attempt of `row` to `sub`; `body` undefined: the event's body is
   * gone; `slow`: the endpoint keeps timing out (the shorter deadline). Never rejects.
   */
  async send(
    row: DeepReadonly<PendingDelivery>,
    sub: DeepReadonly<SubscriptionRecord>,
    body: string | undefined,
    slow = false,
  ): Promise<SentAttempt> {
    const startedAt = this.clock.now();
    if (body === undefined) return { startedAt, headers: {}, body: '', result: { durationMs: 0, response: null, error: BODY_GONE } };
    const bytes = this.bodies.get(row.event_id, body);
    const headers = webhookHeaders({ secret: this.keyFor(sub), msgId: row.id, timestamp: Math.floor(startedAt / 1000), body: bytes });
    const result = await this.sender.send(sub.url, headers, bytes, slow);
    return { startedAt, headers, body, result };
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
