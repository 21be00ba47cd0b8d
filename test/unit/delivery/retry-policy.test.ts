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
      expect(decideAfterAttempt(1, { kind: 'response', status }, DEFAULT_RETRY_SCHEDULE)).toMatchObject({ kind: 'succeeded' });
  });

  it('retries every non-2xx status but 410, redirects included, and network errors', () => {
    expect(decideAfterAttempt(1, { kind: 'response', status: 410 }, DEFAULT_RETRY_SCHEDULE)).toMatchObject({
      kind: 'failed',
      rule: 'gone',
      disable: true,
    });
    for (const status of [199, 300, 301, 302, 304, 307, 308, 400, 404, 429, 500, 503]) {
      expect(decideAfterAttempt(1, { kind: 'response', status }, DEFAULT_RETRY_SCHEDULE)).toMatchObject({ kind: 'retry', delayMs: 5000 });
    }
    expect(decideAfterAttempt(1, { kind: 'error', message: 'ECONNREFUSED' }, DEFAULT_RETRY_SCHEDULE)).toMatchObject({
      kind: 'retry',
      delayMs: 5000,
    });
    expect(decideAfterAttempt(1, { kind: 'error', message: 'timed out' }, DEFAULT_RETRY_SCHEDULE)).toMatchObject({
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
    expect(decideAfterAttempt(9, serverError, DEFAULT_RETRY_SCHEDULE)).toMatchObject({ kind: 'failed' });
    expect(decideAfterAttempt(9, ok, DEFAULT_RETRY_SCHEDULE)).toMatchObject({ kind: 'succeeded' });
  });

  it('refuses a nonsensical attempt number', () => {
    expect(() => decideAfterAttempt(0, serverError, DEFAULT_RETRY_SCHEDULE)).toThrow(RangeError);
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => decideAfterAttempt(n, serverError, DEFAULT_RETRY_SCHEDULE)).toThrow(RangeError);
  });

  it('rounds each step to whole milliseconds, and a zero step retries at once', () => {
    expect(decideAfterAttempt(1, serverError, [1.2345])).toMatchObject({ kind: 'retry', delayMs: 1235 });
    expect(decideAfterAttempt(1, serverError, [0.0004])).toMatchObject({ kind: 'retry', delayMs: 0 });
    expect(play([serverError], [0, 0, 0])).toMatchObject({ attemptsAt: [0, 0, 0, 0], end: 'failed' });
  });

  it('uses the step of the attempt that just ended, whatever the outcome was', () => {
    const schedule = [1, 2, 3];
    const outcomes: AttemptOutcome[] = [serverError, { kind: 'response', status: 429 }, { kind: 'error', message: 'timed out' }];
    outcomes.forEach((o, i) => expect(decideAfterAttempt(i + 1, o, schedule)).toMatchObject({ kind: 'retry', delayMs: (i + 1) * 1000 }));
    expect(decideAfterAttempt(4, outcomes[2], schedule)).toMatchObject({ kind: 'failed' });
  });

  it('takes only 200 to 299 as success', () => {
    for (const status of [100, 101, 199, 300, 304, 0])
      expect(decideAfterAttempt(1, { kind: 'response', status }, [])).toMatchObject({ kind: 'failed' });
    for (const status of [200, 250, 299])
      expect(decideAfterAttempt(1, { kind: 'response', status }, [])).toMatchObject({ kind: 'succeeded' });
  });
});
