// What one ended attempt writes to the history log (through the outbox, its one
// writer): the attempt itself (request and response as sent and received) and the
// delivery's updated summary, in one call (HistoryLog.recordAttempted).
import { isoTime } from '../clock.js';
import type { PendingDelivery } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import type { AttemptRecord, DeliverySummary, HistoryLog } from '../store/history-types.js';
import type { SendResult } from './http-sender.js';
import type { AttemptRule, DeliveryStatus, FaultName } from '@shared/api-types.js';

export interface EndedAttempt {
  row: DeepReadonly<PendingDelivery>;
  /** 1-based number of this attempt. */
  attempt: number;
  url: string;
  startedAt: number;
  headers: Record<string, string>;
  body: string;
  result: SendResult;
  succeeded: boolean;
  status: DeliveryStatus;
  nextAt: number | null;
  /** Which rule applied, in a code and in words; whether sending was slowed down. */
  rule: AttemptRule;
  detail: string;
  slowDown: boolean;
  /** The deliberate faults it carried (test helpers). */
  faults?: FaultName[];
  /** A conformance check's request (Outbox.recordCheck). */
  origin?: 'check';
  /** It failed to a tunnel URL of this receiver while the tunnel was not online. */
  tunnelOffline?: boolean;
}

export function logAttempt(history: HistoryLog, a: EndedAttempt): void {
  const { row, result } = a;
  const startedIso = isoTime(a.startedAt);
  // Built field by field, optional fields last, in the record's documented order (the
  // history log writes an attempt of exactly this shape without a generic stringify).
  const attempt: AttemptRecord = {
    delivery_id: row.id,
    subscription_id: row.subscription_id,
    attempt: a.attempt,
    started_at: startedIso,
    duration_ms: result.durationMs,
    request: { method: 'POST', url: a.url, headers: a.headers, body: a.body },
    response: result.response,
    error: result.error,
    succeeded: a.succeeded,
    next_attempt_at: a.nextAt,
    rule: a.rule,
    rule_detail: a.detail,
  };
  if (a.slowDown) attempt.slowed_down = true;
  if (a.faults && a.faults.length > 0) attempt.faults = a.faults;
  if (a.tunnelOffline) attempt.tunnel_offline = true;
  const summary: DeliverySummary = {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    subscription_id: row.subscription_id,
    company_id: row.company_id,
    document_id: row.document_id,
    url: a.url,
    status: a.status,
    attempts: a.attempt,
    created_at: row.created_at,
    last_attempt_at: startedIso,
    last_status_code: result.response ? result.response.status : null,
    last_error: result.error,
    last_duration_ms: result.durationMs,
    next_attempt_at: a.nextAt,
  };
  if (a.origin) summary.origin = a.origin;
  if (a.tunnelOffline) summary.last_tunnel_offline = true;
  history.recordAttempted(attempt, summary);
}
