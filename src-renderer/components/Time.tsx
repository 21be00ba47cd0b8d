// A timestamp as "3 min ago" with the exact time on hover and for assistive tech.
import { useEffect, useState } from 'react';

const rtf = typeof Intl !== 'undefined' ? new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }) : null;

export function relative(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((t - now) / 1000);
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

/** Re-renders every 30 s so relative times stay true. */
function useTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const i = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(i);
  }, []);
  return now;
}

export function Time({ iso, mode = 'relative' }: { iso: string | null | undefined; mode?: 'relative' | 'exact' }) {
  const now = useTick();
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={exact(iso)}>
      {mode === 'relative' ? relative(iso, now) : exact(iso)}
    </time>
  );
}
