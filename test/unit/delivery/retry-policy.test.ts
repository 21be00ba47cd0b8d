import { describe, expect, it } from 'vitest';
import { decideAfterAttempt, type AttemptOutcome } from '../../../src-main/backend/delivery/retry-policy.js';
import { DEFAULT_RETRY_SCHEDULE } from '../../../src-main/backend/config.js';

const ok: AttemptOutcome = { kind: 'response', status: 200 };
const serverError: AttemptOutcome = { kind: 'response', status: 500 };

/**
 * Plays a delivery against a fake clock: each attempt's outcome comes from `outcomes`
 * (the last one repeats); returns when each attempt ran and how it ended.
 */
function play(outcomes: AttemptOutcome[], schedule: readonly number[]) {
  let clock = 1_000_000; // fake epoch ms
  const attemptsAt: number[] = [];
  for (let attempt = 1; ; attempt++) {
    attemptsAt.push(clock);
    const decision = decideAfterAttempt(attempt, outcomes[Math.min(attempt, outcomes.length) - 1], schedule);
    if (decision.kind !== 'retry') return { attemptsAt: attemptsAt.map((t) => t - 1_000_000), end: decision.kind, clock };
    clock += decision.delayMs;
  }
}

describe('retry policy', () => {
  it('succeeds on any 2xx', () => {
    for (const status of [200, 201, 202, 204, 299])
      expect(decideAfterAttempt(1, { kind: 'response', status }, DEFAULT_RETRY_SCHEDULE)).toEqual({ kind: 'succeeded' });
  });

  it('retries every non-2xx status, redirects included, and network errors', () => {
    for (const status of [199, 300, 301, 302, 304, 307, 308, 400, 404, 410, 429, 500, 503]) {
      expect(decideAfterAttempt(1, { kind: 'response', status }, DEFAULT_RETRY_SCHEDULE)).toEqual({ kind: 'retry', delayMs: 5000 });
    }
    expect(decideAfterAttempt(1, { kind: 'error', message: 'ECONNREFUSED' }, DEFAULT_RETRY_SCHEDULE)).toEqual({
      kind: 'retry',
      delayMs: 5000,
    });
    expect(decideAfterAttempt(1, { kind: 'error', message: 'timed out' }, DEFAULT_RETRY_SCHEDULE)).toEqual({
      kind: 'retry',
      delayMs: 5000,
    });
  });

  it('follows the default schedule on a fake clock: 8 attempts, then failed', () => {
    const run = play([serverError], DEFAULT_RETRY_SCHEDULE);
    expect(run.attemptsAt).toHaveLength(8);
    expect(run.end).toBe('failed');
    expect(run.attemptsAt).toEqual([0, 5, 305, 2105, 9305, 27305, 63305, 99305].map((s) => s * 1000));
  });

  it('stops retrying at the first success', () => {
    const run = play([serverError, { kind: 'error', message: 'ECONNRESET' }, ok], DEFAULT_RETRY_SCHEDULE);
    expect(run.end).toBe('succeeded');
    expect(run.attemptsAt).toEqual([0, 5_000, 305_000]);
  });

  it('honours a compressed schedule (fractions of a second) and an empty one', () => {
    expect(play([serverError], [0.05, 0.05]).attemptsAt).toEqual([0, 50, 100]);
    expect(play([serverError], [])).toMatchObject({ attemptsAt: [0], end: 'failed' });
  });

  it('fails an attempt numbered past the schedule (a redelivery of a failed delivery gets one try)', () => {
    expect(decideAfterAttempt(9, serverError, DEFAULT_RETRY_SCHEDULE)).toEqual({ kind: 'failed' });
    expect(decideAfterAttempt(9, ok, DEFAULT_RETRY_SCHEDULE)).toEqual({ kind: 'succeeded' });
  });

  it('refuses a nonsensical attempt number', () => {
    expect(() => decideAfterAttempt(0, serverError, DEFAULT_RETRY_SCHEDULE)).toThrow(RangeError);
  });
});
