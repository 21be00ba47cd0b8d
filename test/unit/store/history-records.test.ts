// The history log's line format: the attempt line's fast path must write the same JSON
// as JSON.stringify, and anything not of the standard shape must be kept as given.
import { describe, expect, it } from 'vitest';
import { attemptLine, isStandardAttempt, parseAttempt } from '../../../src-main/backend/store/history/records.js';
import type { AttemptRecord } from '../../../src-main/backend/store/history-types.js';
import { attempt } from './history-fixtures.js';

const plain = (a: unknown) => `{"t":"a","d":${JSON.stringify((a as AttemptRecord).delivery_id)},"v":${JSON.stringify(a)}}\n`;
const longBody = JSON.stringify({ id: 'evt_1', data: { title: 'quotes " and \\ and \u2028 and é and 😀', pad: 'x'.repeat(400) } });

describe('attemptLine', () => {
  it('writes exactly what JSON.stringify writes, for every variant of the standard shape', () => {
    const variants: AttemptRecord[] = [
      attempt(),
      attempt({
        request: { method: 'POST', url: 'http://127.0.0.1:1/a?b="c"', headers: { 'webhook-id': 'msg_1', x: 'y"z' }, body: longBody },
      }),
      attempt({ response: null, error: 'ECONNREFUSED: "connect" failed', succeeded: false, next_attempt_at: 1_700_000_000_123 }),
      attempt({ response: { status: 500, headers: {}, body: longBody + longBody, truncated: true }, succeeded: false }),
      attempt({ duration_ms: 0, attempt: 7 }),
      attempt({
        response: { status: 429, headers: { 'retry-after': '7' }, body: '', truncated: false },
        succeeded: false,
        rule: 'retry_after',
        rule_detail: '429 "x"',
        slowed_down: true,
      }),
    ];
    for (const a of variants) {
      expect(isStandardAttempt(a)).toBe(true); // the fast path is what is compared here
      expect(attemptLine(a)).toBe(plain(a));
      // The cached string literal of a long body is reused, still exact.
      expect(attemptLine(a)).toBe(plain(a));
      expect(parseAttempt(attemptLine(a).trimEnd())).toEqual(a);
    }
  });

  it('keeps records of any other shape as given (extra fields, odd values)', () => {
    const extra = { ...attempt(), note: 'imported' } as AttemptRecord;
    const nan = attempt({ duration_ms: Number.NaN });
    const extraInRequest = attempt({ request: { ...attempt().request, extra: 1 } as AttemptRecord['request'] });
    const older = { ...attempt() } as Partial<AttemptRecord>;
    delete older.rule;
    delete older.rule_detail;
    const noHeaders = attempt({ response: { status: 200, body: 'ok', truncated: false } as AttemptRecord['response'] });
    for (const a of [extra, nan, extraInRequest, noHeaders, older as AttemptRecord]) {
      expect(isStandardAttempt(a)).toBe(false);
      expect(attemptLine(a)).toBe(plain(a));
    }
    expect(parseAttempt(attemptLine(extra).trimEnd())).toMatchObject({ note: 'imported' });
    expect(parseAttempt(attemptLine(nan).trimEnd())?.duration_ms).toBeNull();
  });
});
