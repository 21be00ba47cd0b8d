// A scenario's `expect` step, judged against what the endpoint has been sent so far
// (the delivery log of the run's subscription): pure, so it is tested without a server.
import type { DeliverySummary } from '../store/history-types.js';
import type { ExpectStep } from './schema.js';

export interface SentDelivery extends DeliverySummary {
  /** When its first attempt started (epoch ms), or null before any attempt. */
  first_attempt_at: number | null;
}

/** `refs` maps a scenario's document names to their ids. Answers the problems found (none: it held). */
export function judge(step: ExpectStep, sent: SentDelivery[], refs: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  if (step.count !== undefined && sent.length !== step.count)
    problems.push(`expected ${step.count} deliveries in all, the endpoint was sent ${sent.length}`);
  for (const want of step.deliveries ?? []) {
    const docId = want.document === undefined ? undefined : refs.get(want.document);
    const label = want.document === undefined ? want.type : `${want.type} of ${want.document}`;
    if (want.document !== undefined && docId === undefined) {
      problems.push(`${label}: no document is named "${want.document}" in this scenario`);
      continue;
    }
    const found = sent.filter((d) => d.event_type === want.type && (docId === undefined || d.document_id === docId));
    if (found.length === 0) {
      problems.push(`${label}: never sent`);
      continue;
    }
    const d = found[found.length - 1];
    if (want.status !== undefined && d.status !== want.status) problems.push(`${label}: status is ${d.status}, expected ${want.status}`);
    if (want.attempts !== undefined && d.attempts !== want.attempts)
      problems.push(`${label}: ${d.attempts} attempts, expected ${want.attempts}`);
    if (want.last_status_code !== undefined && d.last_status_code !== want.last_status_code)
      problems.push(`${label}: the endpoint last answered ${d.last_status_code ?? 'nothing'}, expected ${want.last_status_code}`);
  }
  if (step.order) {
    const received = receivedOrder(sent);
    const got = received.slice(0, step.order.length);
    if (got.join(',') !== step.order.join(','))
      problems.push(`received in the order ${got.join(' → ') || '(nothing)'}, expected ${step.order.join(' → ')}`);
  }
  return problems;
}

/** Event types in the order their first attempt started (creation order breaks ties and orders the unsent last). */
export function receivedOrder(sent: SentDelivery[]): string[] {
  return sent
    .map((d, i) => ({ d, i }))
    .filter(({ d }) => d.first_attempt_at !== null)
    .sort((a, b) => a.d.first_attempt_at! - b.d.first_attempt_at! || a.i - b.i)
    .map(({ d }) => d.event_type);
}

export function expectationSummary(step: ExpectStep): string {
  const parts: string[] = [];
  if (step.count !== undefined) parts.push(`${step.count} deliveries in all`);
  for (const d of step.deliveries ?? [])
    parts.push(
      [d.type, d.document && `of ${d.document}`, d.status, d.attempts !== undefined && `${d.attempts} attempts`].filter(Boolean).join(' '),
    );
  if (step.order) parts.push(`order ${step.order.join(' → ')}`);
  return `expect ${parts.join('; ') || 'nothing'}`;
}
