// A small chart of the last hour: deliveries per minute by outcome (stacked bars) with
// requests received (a line), and the latency of deliveries (p50 and p95 lines). Inline
// SVG made of React elements, sized and coloured by SVG attributes and CSS classes only
// (the page's CSP allows no inline style). Each minute has a title for hover, and the
// whole chart a label with the totals for assistive tech.
import type { ReactNode } from 'react';
import type { InspectorStats, StatsBucket } from '@shared/inspector-types.js';

const W = 600;
const H = 100;
const SERIES = ['succeeded', 'retrying', 'failed', 'pending'] as const;
const SERIES_LABEL: Record<(typeof SERIES)[number], string> = {
  succeeded: 'succeeded',
  retrying: 'retrying',
  failed: 'failed',
  pending: 'not sent yet',
};

const hhmm = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
const ms = (v: number | null) => (v === null ? '—' : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`);

function bucketTitle(b: StatsBucket): string {
  const parts = SERIES.filter((k) => b[k] > 0).map((k) => `${b[k]} ${SERIES_LABEL[k]}`);
  if (b.captures > 0) parts.push(`${b.captures} received`);
  if (b.p50_ms !== null) parts.push(`p50 ${ms(b.p50_ms)}, p95 ${ms(b.p95_ms)}`);
  return `${hhmm(b.start)}: ${parts.length ? parts.join(', ') : 'nothing'}`;
}

/** Line segments through the points that exist (a gap where a minute has no value). */
export function linePath(values: (number | null)[], max: number, step: number): string {
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    const x = i * step + step / 2;
    const y = H - (Math.min(v, max) / max) * (H - 4);
    // A lone minute still shows: a tiny segment with round caps draws a dot.
    d += pen ? `L${x.toFixed(1)} ${y.toFixed(1)} ` : `M${x.toFixed(1)} ${y.toFixed(1)} h0.01 `;
    pen = true;
  });
  return d.trim();
}

function niceMax(v: number): number {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

/** A legend entry: its swatch (sw-<key>) and its words. */
type LegendItem = readonly [string, string];

/**
 * One of the chart's two panels: title and legend above, the scale's top value, the SVG
 * (grid lines at half and full height, then the caller's marks) and the time axis.
 * With `label` the SVG is an image named for assistive tech; without, it is hidden.
 */
function ChartPanel({
  title,
  legend,
  max,
  minutes,
  label,
  children,
}: {
  title: string;
  legend: readonly LegendItem[];
  max: string;
  minutes: number;
  label?: string;
  children: ReactNode;
}) {
  const named = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <div className="chart-panel">
      <div className="chart-head">
        <span className="chart-title">{title}</span>
        <ul className="chart-legend">
          {legend.map(([key, words]) => (
            <li key={key}>
              <span className={`legend-swatch sw-${key}`} aria-hidden="true" />
              {words}
            </li>
          ))}
        </ul>
      </div>
      <div className="chart-frame">
        <span className="chart-max">{max}</span>
        <svg className="chart-svg" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" width="100%" height="88" {...named}>
          {[0.5, 1].map((f) => (
            <line
              key={f}
              className="chart-grid"
              x1={0}
              x2={W}
              y1={H - f * (H - 4)}
              y2={H - f * (H - 4)}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {children}
        </svg>
        <div className="chart-axis" aria-hidden="true">
          <span>{minutes} min ago</span>
          <span>now</span>
        </div>
      </div>
    </div>
  );
}

export function StatsChart({ stats }: { stats: InspectorStats }) {
  const { buckets, totals } = stats;
  const step = W / Math.max(1, buckets.length);
  const maxCount = niceMax(Math.max(1, ...buckets.map((b) => Math.max(b.succeeded + b.retrying + b.failed + b.pending, b.captures))));
  const maxLatency = niceMax(Math.max(10, ...buckets.map((b) => b.p95_ms ?? 0)));
  const sent = totals.succeeded + totals.retrying + totals.failed + totals.pending;
  const label = `Last ${stats.minutes} minutes: ${sent} deliveries (${totals.succeeded} succeeded, ${totals.retrying} retrying, ${totals.failed} failed, ${totals.pending} not sent yet), ${totals.captures} requests received; latency p50 ${ms(totals.p50_ms)}, p95 ${ms(totals.p95_ms)}.`;

  return (
    <div className="chart" role="group" aria-label="Activity in the last hour">
      <ChartPanel
        title="Deliveries per minute"
        legend={[...SERIES.map((k): LegendItem => [k, `${totals[k]} ${SERIES_LABEL[k]}`]), ['captures', `${totals.captures} received`]]}
        max={`${maxCount}/min`}
        minutes={stats.minutes}
        label={label}
      >
        {buckets.map((b, i) => {
          let y = H;
          return (
            <g key={b.start}>
              <title>{bucketTitle(b)}</title>
              <rect className="chart-hit" x={i * step} y={0} width={step} height={H} />
              {SERIES.map((k) => {
                if (b[k] === 0) return null;
                const h = (b[k] / maxCount) * (H - 4);
                y -= h;
                return <rect key={k} className={`bar bar-${k}`} x={i * step + step * 0.15} y={y} width={step * 0.7} height={h} />;
              })}
            </g>
          );
        })}
        <path
          className="chart-line line-captures"
          d={linePath(
            buckets.map((b) => b.captures),
            maxCount,
            step,
          )}
          vectorEffect="non-scaling-stroke"
        />
      </ChartPanel>
      <ChartPanel
        title="Delivery latency"
        legend={[
          ['p50', `p50 ${ms(totals.p50_ms)}`],
          ['p95', `p95 ${ms(totals.p95_ms)}`],
        ]}
        max={ms(maxLatency)}
        minutes={stats.minutes}
      >
        <path
          className="chart-line line-p95"
          d={linePath(
            buckets.map((b) => b.p95_ms),
            maxLatency,
            step,
          )}
          vectorEffect="non-scaling-stroke"
        />
        <path
          className="chart-line line-p50"
          d={linePath(
            buckets.map((b) => b.p50_ms),
            maxLatency,
            step,
          )}
          vectorEffect="non-scaling-stroke"
        />
      </ChartPanel>
    </div>
  );
}
