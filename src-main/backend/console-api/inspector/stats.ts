// The inspector's chart: deliveries per minute by outcome and their latency (p50 and
// p95 of the last attempt's duration), plus captures per minute, over the last N
// minutes. Read from the delivery summaries of the history log's index (a closed
// segment's last-attempt fields come from its index file, a few ms a segment, cached: no
// read of the history itself): a delivery counts once, in the minute of its last attempt (or of
// its creation while none was made), with its outcome as it stands now.
import { captureRow, deliveryRow, matches, timeOf, type InspectorFilter, type RowContext } from './rows.js';
import { deliveries } from './feed.js';
import type { InspectorStats } from '@shared/inspector-types.js';

export const BUCKET_MS = 60_000;
/** Retries come hours later: deliveries made this long before the window are still looked at. */
const LOOKBACK_MS = 6 * 3600_000;
/** Bound on deliveries looked at for one chart (the newest first). */
const SCAN_LIMIT = 100_000;

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function computeStats(ctx: RowContext, f: InspectorFilter, minutes: number, now = ctx.receiver.clock.now()): InspectorStats {
  const lastStart = Math.floor(now / BUCKET_MS) * BUCKET_MS;
  const start = lastStart - (minutes - 1) * BUCKET_MS;
  const counts = Array.from({ length: minutes }, () => ({ succeeded: 0, failed: 0, retrying: 0, pending: 0, captures: 0 }));
  const latencies: number[][] = Array.from({ length: minutes }, () => []);
  const slot = (ms: number) => (ms < start || ms >= lastStart + BUCKET_MS ? -1 : Math.floor((ms - start) / BUCKET_MS));

  let scanned = 0;
  let partial = false;
  if (f.kind !== 'capture') {
    // Newest first by creation time: everything made too long before the window ends the walk.
    for (const { d, ms } of deliveries(ctx)) {
      if (ms < start - LOOKBACK_MS) break;
      if (++scanned > SCAN_LIMIT) {
        partial = true;
        break;
      }
      const i = slot(timeOf(d.last_attempt_at ?? d.created_at));
      if (i === -1 || d.status === 'cancelled' || d.status === 'skipped') continue;
      // An imported delivery is a record, never attempted here: it is not waiting for anything.
      if (d.imported && d.status === 'pending') continue;
      const row = deliveryRow(ctx, d);
      if (!matches(row, f)) continue;
      const key = d.status === 'pending' ? (d.attempts > 0 ? 'retrying' : 'pending') : d.status;
      counts[i][key]++;
      if (d.last_duration_ms !== null && d.attempts > 0) latencies[i].push(d.last_duration_ms);
    }
  }
  if (f.kind !== 'delivery') {
    const inboxIds = f.inbox_id ? [f.inbox_id] : ctx.receiver.inboxes.all().map((r) => r.id);
    for (const id of inboxIds) {
      // At most a thousand per inbox, and imported ones may be out of order: look at each.
      for (const c of ctx.receiver.captures.list(id)) {
        const i = slot(timeOf(c.received_at));
        if (i !== -1 && matches(captureRow(ctx, c), f, c)) counts[i].captures++;
      }
    }
  }

  const all: number[] = [];
  const buckets = counts.map((c, i) => {
    const l = latencies[i].sort((a, b) => a - b);
    for (const ms of l) all.push(ms); // not a spread: a busy minute can exceed a call's argument limit
    return { start: new Date(start + i * BUCKET_MS).toISOString(), ...c, p50_ms: percentile(l, 50), p95_ms: percentile(l, 95) };
  });
  all.sort((a, b) => a - b);
  const sum = (k: 'succeeded' | 'failed' | 'retrying' | 'pending' | 'captures') => counts.reduce((n, c) => n + c[k], 0);
  return {
    minutes,
    bucket_ms: BUCKET_MS,
    start: new Date(start).toISOString(),
    end: new Date(now).toISOString(),
    buckets,
    totals: {
      succeeded: sum('succeeded'),
      failed: sum('failed'),
      retrying: sum('retrying'),
      pending: sum('pending'),
      captures: sum('captures'),
      p50_ms: percentile(all, 50),
      p95_ms: percentile(all, 95),
    },
    partial,
  };
}
