// What happens after an attempt: a pure function of the attempt number, its outcome,
// the schedule and the time. No clock here: the engine passes `now`, adds the delay to
// its own clock and stores the due time, so the schedule survives a restart.
// Answers that mean something (Standard Webhooks' recommendations, docs/api.md
// "Delivery semantics"): 410 Gone disables the subscription; 429 and 503 with
// Retry-After wait what the endpoint asked (capped by the schedule's longest step);
// 429, 502 and 504 slow the subscription's sending down. The decision says which rule
// applied, in a code and in words, for the attempt log.
import type { AttemptRule } from '@shared/api-types.js';

/** What an attempt ended with. A redirect is a response like any other: never followed. */
export type AttemptOutcome = { kind: 'response'; status: number; retryAfter?: string } | { kind: 'error'; message: string };

export interface RetryDecision {
  kind: 'succeeded' | 'retry' | 'failed';
  /** For `retry`: how long to wait. */
  delayMs: number;
  rule: AttemptRule;
  /** The rule in words, for the attempt log. */
  detail: string;
  /** 429/502/504: send to this subscription more gently for a while. */
  slowDown: boolean;
  /** 410: the subscription is disabled at once. */
  disable: boolean;
}

export const isSuccessStatus = (status: number): boolean => status >= 200 && status <= 299;

const SLOW_DOWN_STATUSES = new Set([429, 502, 504]);
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** Seconds a Retry-After value asks for (delta-seconds or an HTTP date), or undefined when it is not one. */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v);
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** "200: delivered" and the like, made once per status (nearly every attempt is a success). */
const SUCCESS_DETAILS: string[] = [];
const successDetail = (status: number): string => (SUCCESS_DETAILS[status - 200] ??= `${status}: delivered`);

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * `attempt` is the 1-based number of the attempt that just ended; `schedule` holds the
 * seconds to wait before attempts 2..schedule.length+1. Anything but a 2xx is retried
 * while the schedule lasts, then the delivery has failed for good.
 */
export function decideAfterAttempt(attempt: number, outcome: AttemptOutcome, schedule: readonly number[], now = 0): RetryDecision {
  if (outcome.kind === 'response' && isSuccessStatus(outcome.status))
    return { kind: 'succeeded', delayMs: 0, rule: 'success', detail: successDetail(outcome.status), slowDown: false, disable: false };
  const base = { delayMs: 0, slowDown: false, disable: false };
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number from 1 (got ${attempt})`);
  const status = outcome.kind === 'response' ? outcome.status : null;
  if (status === 410)
    return { ...base, kind: 'failed', rule: 'gone', disable: true, detail: '410 Gone: the subscription is disabled; no further attempt' };
  const slowDown = status !== null && SLOW_DOWN_STATUSES.has(status);
  const slowed = slowDown ? '; sending to this subscription slowed down' : '';
  const what = status === null ? 'No response' : String(status);
  if (attempt > schedule.length)
    return { ...base, kind: 'failed', slowDown, rule: 'exhausted', detail: `${what}: no retry left, the delivery has failed${slowed}` };
  const scheduled = Math.max(0, Math.round(schedule[attempt - 1] * 1000));
  const asked =
    outcome.kind === 'response' && RETRY_AFTER_STATUSES.has(outcome.status) ? retryAfterSeconds(outcome.retryAfter, now) : undefined;
  if (asked !== undefined) {
    const cap = Math.max(0, ...schedule.map((s) => Math.round(s * 1000)));
    const delayMs = Math.min(asked * 1000, cap);
    const capped = delayMs < asked * 1000 ? ` (capped at the schedule's longest step, ${seconds(cap)})` : '';
    return {
      ...base,
      kind: 'retry',
      delayMs,
      slowDown,
      rule: 'retry_after',
      detail: `${what} with Retry-After: ${outcome.kind === 'response' ? outcome.retryAfter : ''}: next attempt in ${seconds(delayMs)}${capped}${slowed}`,
    };
  }
  return {
    ...base,
    kind: 'retry',
    delayMs: scheduled,
    slowDown,
    rule: 'backoff',
    detail: `${what}: retry ${attempt} of ${schedule.length} in ${seconds(scheduled)}${slowed}`,
  };
}
