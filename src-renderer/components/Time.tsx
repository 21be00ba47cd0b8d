// A timestamp as "3 min ago" with the exact time on hover (title) and for assistive tech
// (<time dateTime>). Measured against the service's now (now.ts: one ticking clock for
// the page). A past event ("updated", "created", an attempt) never reads in the future
// tense, whatever the skew between clocks; a time to come (a next attempt) never reads
// in the past one: both say "now" at the turn.
import { useServiceNow } from '../now.js';

const rtf = typeof Intl !== 'undefined' ? new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }) : null;

export type Tense = 'past' | 'future';

export function relative(iso: string, now: number, tense: Tense = 'past'): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  let s = Math.round((t - now) / 1000);
  if ((tense === 'past' && s > 0) || (tense === 'future' && s < 0)) s = 0;
  const abs = Math.abs(s);
  if (!rtf) return new Date(t).toLocaleString();
  if (abs < 45) return rtf.format(s, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 26 * 86400) return rtf.format(Math.round(s / 86400), 'day');
  return new Date(t).toLocaleDateString();
}

export function exact(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toLocaleString();
}

export function Time({
  iso,
  mode = 'relative',
  tense = 'past',
}: {
  iso: string | null | undefined;
  mode?: 'relative' | 'exact';
  tense?: Tense;
}) {
  const now = useServiceNow(5000);
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={exact(iso)}>
      {mode === 'relative' ? relative(iso, now, tense) : exact(iso)}
    </time>
  );
}
