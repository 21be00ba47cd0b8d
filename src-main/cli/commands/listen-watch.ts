// What `countersign listen` prints per delivery: it reads the service's own delivery log
// (GET /v2/webhooks/{id}/deliveries), the same on any Countersign, and reports each new
// attempt once. In forward mode the receiver answers with the app's own status, so the
// log's last_status_code is the app's answer. Guards against a service that stops
// answering mid-session ending the run or flooding the terminal: it is said once, the
// log is read again until it answers, and that is said too (as stripe listen reconnects).
import { systemClock } from '../../backend/clock.js';
import type { CommandContext } from '../define.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { Target } from '../target.js';

/** How long one read of the delivery log may take before it counts as no answer. */
const READ_TIMEOUT_MS = 10_000;

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
      const page = await this.target.call<{ data: DeliveryRecord[] }>(
        'GET',
        `/v2/webhooks/${id}/deliveries?limit=100`,
        undefined,
        READ_TIMEOUT_MS,
      );
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

/** Waits `ms`, or less when the signal fires. */
function pause(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = () => {
      systemClock.clearTimeout(t);
      signal.removeEventListener('abort', wake);
      resolve();
    };
    const t = systemClock.setTimeout(wake, ms);
    signal.addEventListener('abort', wake, { once: true });
  });
}

/**
 * Prints every new attempt until Ctrl-C. When the service stops answering (or refuses
 * the key), that is said once and the log is read again every `pollMs`; when it answers
 * again, that is said and nothing in between is lost (the log keeps it). Said on stderr,
 * or with --json as the lines {"type":"unreachable","message"} and {"type":"reachable"}.
 */
export async function followDeliveries(
  ctx: CommandContext,
  watch: DeliveryWatch,
  service: Target,
  pollMs: number,
  text: (d: DeliveryLine) => string,
) {
  const { out, signal } = ctx;
  let lost = false;
  while (!signal.aborted) {
    try {
      const lines = await watch.poll();
      if (lost) {
        const message = `${service.description} answers again.`;
        if (out.json) out.item({ type: 'reachable', message }, message);
        else out.note(message);
      }
      lost = false;
      for (const line of lines) out.item({ type: 'delivery', ...line }, text(line));
    } catch (err) {
      if (!(err instanceof CliError) || err.exitCode !== EXIT.unavailable) throw err;
      const message = `${err.message}. Still trying (Ctrl-C to stop).`;
      if (!lost) {
        if (out.json) out.item({ type: 'unreachable', message }, message);
        else out.error(message, 'unreachable');
      }
      lost = true;
    }
    await pause(signal, pollMs);
  }
}
