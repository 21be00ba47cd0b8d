import type { CaptureResponse, ResponseMode } from '@shared/receiver-types.js';
// What an inbox answers, as a pure function of its response mode and how many times
// this webhook-id has reached it under that mode. The receiver applies the delay or
// hang; nothing here touches a socket.

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

function answer(status: number, body: Record<string, unknown>, delay_ms = 0, extra: Record<string, string> = {}): CaptureResponse {
  return { status, headers: { ...JSON_TYPE, ...extra }, body: JSON.stringify(body), delay_ms, hang: false };
}

/**
 * @param attempt 1-based: the how-many-th request with this webhook-id (or, without a
 *   webhook-id, the how-many-th request without one) since the mode was last set.
 */
export function decideResponse(mode: ResponseMode, attempt: number, captureId: string): CaptureResponse {
  switch (mode.mode) {
    case 'status': {
      const ok = mode.status < 300;
      return answer(
        mode.status,
        ok ? { received: true, capture_id: captureId } : { received: true, capture_id: captureId, simulated_status: mode.status },
        mode.delay_ms,
      );
    }
    case 'fail_first_n':
      if (attempt <= mode.fail_first_n) {
        return answer(
          mode.fail_status,
          { received: true, capture_id: captureId, simulated_failure: `attempt ${attempt} of the first ${mode.fail_first_n} that fail` },
          mode.delay_ms,
        );
      }
      return answer(200, { received: true, capture_id: captureId }, mode.delay_ms);
    case 'hang':
      return { status: null, headers: {}, body: '', delay_ms: 0, hang: true };
    case 'gone':
      return answer(410, { received: true, capture_id: captureId, simulated_status: 410 }, mode.delay_ms);
    case 'rate_limited':
      return answer(429, { received: true, capture_id: captureId, simulated_status: 429 }, mode.delay_ms, {
        'retry-after': String(mode.retry_after),
      });
    case 'forward':
      // The app answers (forward.ts); this stands until it has.
      return { status: null, headers: {}, body: '', delay_ms: 0, hang: false };
  }
}

/** A short description for lists ("200", "fail first 3 with 503", "hang", …). */
export function describeResponse(mode: ResponseMode): string {
  const d = 'delay_ms' in mode && mode.delay_ms ? ` after ${mode.delay_ms} ms` : '';
  switch (mode.mode) {
    case 'status':
      return `${mode.status}${d}`;
    case 'fail_first_n':
      return `fail the first ${mode.fail_first_n} attempts of each webhook-id with ${mode.fail_status}, then 200${d}`;
    case 'hang':
      return 'hang (never answer)';
    case 'gone':
      return `410 Gone${d}`;
    case 'rate_limited':
      return `429 with Retry-After: ${mode.retry_after}${d}`;
    case 'forward':
      return `forward to ${mode.url} (the app's answer)`;
  }
}
