// The one table the benchmark prints, and the same rows as JSON.
import os from 'node:os';
import { execFileSync } from 'node:child_process';

export function machineInfo() {
  const cpus = os.cpus();
  let busy;
  try {
    // What else is using the CPU right now (other engineers' builds and tests share it).
    busy = execFileSync('ps', ['-eo', 'pcpu,comm', '--sort=-pcpu', '--no-headers'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && parseFloat(l) >= 5)
      .slice(0, 6)
      .join('; ');
  } catch {
    busy = 'unknown';
  }
  let commit;
  try {
    // Which code was measured: the commit, and whether the working tree differed from it.
    const git = (...a) => execFileSync('git', a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    commit = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' (with uncommitted changes)' : ''}`;
  } catch {
    commit = 'unknown (not a git checkout)';
  }
  return {
    commit,
    cores: cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    memory_gib: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadavg_before: os.loadavg().map((x) => +x.toFixed(2)),
    busy_before: busy,
  };
}

const fmtNum = (v, digits = 0) =>
  v === null || v === undefined || Number.isNaN(v)
    ? '—'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function fmtValue(v, unit) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  switch (unit) {
    case 'req/s':
    case 'deliv/s':
      return `${fmtNum(v)} ${unit}`;
    case 'ms':
      return `${fmtNum(v, 1)} ms`;
    case 'us':
      return `${fmtNum(v)} µs`;
    case 'MiB':
      return v < 2 ** 20 ? `${fmtNum(v / 1024, 1)} KiB` : `${fmtNum(v / 2 ** 20, 1)} MiB`;
    case 's':
      return `${fmtNum(v, 1)} s`;
    case 'count':
      return fmtNum(v);
    default:
      return String(v);
  }
}

/**
 * A row: { metric, unit, countersign, reference, ratio (0..n or null), target (text), verdict: 'PASS'|'MISS'|'info' }.
 */
export function renderTable(rows) {
  const head = ['Figure', 'Measured', 'Reference', 'Ratio', 'Target', 'Result'];
  const body = rows.map((r) => [
    r.metric,
    fmtValue(r.countersign, r.unit),
    typeof r.reference === 'string' ? r.reference : fmtValue(r.reference, r.referenceUnit ?? r.unit),
    r.ratio === null || r.ratio === undefined ? '—' : `${(r.ratio * 100).toFixed(1)}%`,
    r.target ?? '—',
    r.verdict,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => '| ' + cells.map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  const sep = '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|';
  return [line(head), sep, ...body.map(line)].join('\n');
}

export function verdict(ok) {
  return ok ? 'PASS' : 'MISS';
}
