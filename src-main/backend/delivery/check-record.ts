// A conformance check's requests in the history log (through the outbox, its one
// writer): each is a delivery tagged `origin: "check"` whose subscription_id is the
// check's id (chk_…), never pending and never retried, only logged, so the inspector
// shows it like any other and can filter a check's deliveries.
import type { HistoryLog } from '../store/history-types.js';
import type { SendResult } from './http-sender.js';
import { logAttempt } from './attempt-log.js';
import type { EventType } from '@shared/api-types.js';

/** One request of a conformance check, as sent and answered. */
export interface CheckRecord {
  checkId: string;
  companyId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  documentId: string;
  /** 1 for a delivery's first request; 2 for its repeat. */
  attempt: number;
  url: string;
  /** Epoch ms on the service's clock. */
  startedAt: number;
  headers: Record<string, string>;
  body: string;
  result: SendResult;
}

/**
 * Records one request of a conformance check (checks/runner.ts) as a delivery tagged
 * `origin: "check"`: never pending, never retried, only logged, so the inspector shows
 * it like any other. The first attempt of a delivery records its event too.
 */
export function recordCheck(history: HistoryLog, c: CheckRecord): void {
  const created_at = new Date(c.startedAt).toISOString();
  const row = { id: c.deliveryId, event_id: c.eventId, subscription_id: c.checkId, company_id: c.companyId, document_id: c.documentId };
  const type = c.eventType as EventType; // a check sends an unknown type on purpose
  if (c.attempt === 1) {
    const event = { id: c.eventId, company_id: c.companyId, type, timestamp: created_at, document_id: c.documentId };
    history.recordEvent({ ...event, subscription_id: null, origin: 'check' }, c.body);
  }
  const first = history.getDelivery(c.deliveryId);
  const ok = c.result.response !== null && c.result.response.status >= 200 && c.result.response.status < 300;
  logAttempt(history, {
    row: { ...row, event_type: type, created_at: first?.created_at ?? created_at },
    attempt: c.attempt,
    url: c.url,
    startedAt: c.startedAt,
    headers: c.headers,
    body: c.body,
    result: c.result,
    succeeded: ok,
    status: ok ? 'succeeded' : 'failed',
    nextAt: null,
    rule: ok ? 'success' : 'exhausted',
    detail: ok
      ? `${c.result.response!.status}: delivered`
      : `${c.result.response ? c.result.response.status : 'No response'}: a check's request is never retried`,
    slowDown: false,
    origin: 'check',
  });
}
