// What happens after an attempt (docs/api.md section 12): a pure function of the
// attempt number, its outcome and the schedule. No clock here: the engine adds the
// delay to its own clock and stores the due time, so the schedule survives a restart.

/** What an attempt ended with. A redirect is a response like any other: never followed. */
export type AttemptOutcome = { kind: 'response'; status: number } | { kind: 'error'; message: string };

export type RetryDecision = { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

export const isSuccessStatus = (status: number): boolean => status >= 200 && status <= 299;

/**
 * `attempt` is the 1-based number of the attempt that just ended; `schedule` holds the
 * seconds to wait before attempts 2..schedule.length+1. Anything but a 2xx is retried
 * while the schedule lasts, then the delivery has failed for good.
 */
export function decideAfterAttempt(attempt: number, outcome: AttemptOutcome, schedule: readonly number[]): RetryDecision {
  if (outcome.kind === 'response' && isSuccessStatus(outcome.status)) return { kind: 'succeeded' };
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number from 1 (got ${attempt})`);
  if (attempt > schedule.length) return { kind: 'failed' };
  return { kind: 'retry', delayMs: Math.max(0, Math.round(schedule[attempt - 1] * 1000)) };
}
