// What a history log answers, as one string to compare (tests of the index kept compactly
// or let go: history-cold.test.ts, history-held-index.test.ts), and a fill of every kind of delivery.
import type { DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event } from './history-fixtures.js';

/**
 * `n` deliveries in events of 4, of every kind: delivered, failed with an error, still
 * pending (a retry due), an imported one kept whole; the summaries last recorded, by id.
 */
export function fill(log: HistoryLog, n: number, from = 0): Map<string, DeliverySummary> {
  const want = new Map<string, DeliverySummary>();
  for (let i = from; i < from + n; i += 4) {
    const at = new Date(Date.parse('2026-11-26T10:00:00.000Z') + i * 1000).toISOString();
    log.recordEvent(event({ id: `evt_${i}`, document_id: `doc_${i % 3}`, timestamp: at }), `{"n":${i}}`);
    for (let j = 0; j < 4; j++) {
      const id = `msg_${String(i + j).padStart(5, '0')}`;
      const base = { id, event_id: `evt_${i}`, document_id: `doc_${i % 3}`, subscription_id: `wh_${j}`, created_at: at };
      const v = (i + j) % 23 === 7 ? { ...delivery(base), created_at: 'Nov 26 2026', imported: true as const } : delivery(base);
      log.recordDelivery(v);
      want.set(id, v);
      if ((i + j) % 9 === 0) continue; // stays pending, never attempted
      const failed = (i + j) % 5 === 0;
      const after: DeliverySummary = {
        ...v,
        status: failed ? 'failed' : 'succeeded',
        attempts: 1,
        last_attempt_at: at,
        last_status_code: failed ? 500 : 200,
        last_error: failed ? `HTTP 500 from wh_${j}` : null,
        last_duration_ms: 10 + j,
      };
      log.recordAttempted(attempt({ delivery_id: id, subscription_id: `wh_${j}`, started_at: at }), after);
      want.set(id, after);
    }
  }
  return want;
}

/** Every delivery's attempts as the log reads them back. */
export async function attemptsOf(log: HistoryLog, ids: string[]): Promise<string> {
  const out: unknown[] = [];
  for (const id of ids) out.push(await log.getAttempts(id));
  return JSON.stringify(out);
}

/** What listing and lookup answer, synchronously (no sidecar is written meanwhile): summaries, pages of 7 through every list. */
export function answers(log: HistoryLog, ids: string[]): string {
  const out: unknown[] = ids.map((id) => log.getDelivery(id) ?? null);
  const filters = [{}, { subscription_id: 'wh_1' }, { document_id: 'doc_2' }, { event_id: 'evt_40' }];
  for (const f of filters) {
    let after: string | undefined;
    for (;;) {
      const page = log.listDeliveries({ company_id: 'co_a', ...f }, { limit: 7, starting_after: after });
      out.push(page);
      if (!page.has_more) break;
      after = page.data.at(-1)?.id;
    }
  }
  let from: { ms: number; id: string } | undefined;
  for (const { d, ms } of log.deliveriesByTime('co_a')) {
    out.push(d);
    from ??= { ms, id: d.id };
  }
  out.push([...log.deliveriesByTime('co_a', from)].length);
  return JSON.stringify(out);
}
