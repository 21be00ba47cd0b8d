// What `countersign listen` prints per delivery: it reads the service's own delivery log
// (GET /v2/webhooks/{id}/deliveries), the same on any Countersign, and reports each new
// attempt once. In forward mode the receiver answers with the app's own status, so the
// log's last_status_code is the app's answer.
import type { Target } from '../target.js';

export interface DeliveryLine {
  time: string | null;
  event_type: string;
  webhook_id: string;
  subscription_id: string;
  attempt: number;
  status: number | null;
  error: string | null;
  duration_ms: number | null;
  delivery_status: string;
}

interface DeliveryRecord {
  id: string;
  event_type: string;
  subscription_id: string;
  status: string;
  attempts: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
}

export class DeliveryWatch {
  /** Attempts already reported, by delivery id. */
  private readonly reported = new Map<string, number>();

  constructor(
    private readonly target: Target,
    private readonly subscriptionIds: string[],
  ) {}

  /** Deliveries that exist before listening began are not reported. */
  async prime(): Promise<void> {
    for (const d of await this.read()) this.reported.set(d.id, d.attempts);
  }

  private async read(): Promise<DeliveryRecord[]> {
    const all: DeliveryRecord[] = [];
    for (const id of this.subscriptionIds) {
      const page = await this.target.call<{ data: DeliveryRecord[] }>('GET', `/v2/webhooks/${id}/deliveries?limit=100`);
      all.push(...page.data);
    }
    return all;
  }

  /** New attempts since the last poll, oldest first. */
  async poll(): Promise<DeliveryLine[]> {
    const lines: DeliveryLine[] = [];
    for (const d of await this.read()) {
      if (d.attempts <= (this.reported.get(d.id) ?? 0)) continue;
      this.reported.set(d.id, d.attempts);
      lines.push({
        time: d.last_attempt_at,
        event_type: d.event_type,
        webhook_id: d.id,
        subscription_id: d.subscription_id,
        attempt: d.attempts,
        status: d.last_status_code,
        error: d.last_error,
        duration_ms: d.last_duration_ms,
        delivery_status: d.status,
      });
    }
    return lines.sort((a, b) => (a.time ?? '').localeCompare(b.time ?? ''));
  }
}
