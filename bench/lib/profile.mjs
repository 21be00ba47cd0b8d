// Summarises a V8 CPU profile (.cpuprofile, from `node --cpu-prof` on the service),
// overall and inside each measured phase's time window: self time per function, and
// inclusive time of the application's own functions (the built chunks under out/), so
// a missed target can be traced to the code that dominates it. Sample times are mapped
// to wall-clock time from the moment the process was spawned (the profiler starts a few
// milliseconds later, which is negligible against 5-second windows).
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

function label(cf) {
  const where = cf.url ? `${relative(process.cwd(), cf.url.replace(/^file:\/\//, ''))}:${cf.lineNumber + 1}` : '';
  return `${cf.functionName || '(anonymous)'} ${where}`.trim();
}

const isApp = (cf) => cf.url.includes('/out/main/') && cf.functionName !== '';

function top(map, total, n) {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, us]) => ({ fn, ms: +(us / 1000).toFixed(1), pct: +((us / total) * 100).toFixed(1) }));
}

/**
 * @param windows [{ name, from, to }] in epoch ms; `spawnedAt` epoch ms of the service's spawn.
 */
export async function summariseProfile(dir, files, { spawnedAt, windows = [], n = 12 } = {}) {
  const file = files
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .pop();
  if (!file) return { file: null, lines: ['(no profile written)'] };
  const prof = JSON.parse(await readFile(join(dir, file), 'utf8'));
  const nodes = new Map(prof.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of prof.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  // The distinct application functions on each node's stack (memoised per node).
  const appStack = new Map();
  const stackOf = (id) => {
    if (appStack.has(id)) return appStack.get(id);
    const p = parent.get(id);
    const up = p === undefined ? [] : stackOf(p);
    const cf = nodes.get(id).callFrame;
    const key = isApp(cf) ? label(cf) : null;
    const mine = key && !up.includes(key) ? [...up, key] : up;
    appStack.set(id, mine);
    return mine;
  };
  const sections = [{ name: 'whole run', from: -Infinity, to: Infinity }, ...windows].map((w) => ({
    ...w,
    self: new Map(),
    incl: new Map(),
    total: 0,
  }));
  // A sample's time is the time since the previous one: after the process was descheduled
  // (a busy machine) it carries milliseconds, usually on a function that woke a thread.
  // Each sample counts for at most 1.5 sampling intervals (the median time between samples).
  const sorted = prof.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  const cap = 1.5 * (sorted[sorted.length >> 1] ?? 1000);
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    const raw = prof.timeDeltas[i] ?? 0;
    t += raw;
    const dt = Math.min(raw, cap);
    const node = nodes.get(prof.samples[i]);
    if (!node) continue;
    const key = label(node.callFrame);
    const stack = stackOf(node.id);
    const wall = spawnedAt + (t - prof.startTime) / 1000;
    for (const s of sections) {
      if (wall < s.from || wall > s.to) continue;
      s.self.set(key, (s.self.get(key) ?? 0) + dt);
      for (const k of stack) s.incl.set(k, (s.incl.get(k) ?? 0) + dt);
      s.total += dt;
    }
  }
  const lines = [];
  // The windows' times too, so the profile can be read again differently (capped samples, other functions).
  const out = { file: join(dir, file), spawnedAt, windows, capUs: Math.round(cap), sections: [] };
  for (const s of sections) {
    const self = top(s.self, s.total || 1, n);
    const incl = top(s.incl, s.total || 1, n);
    out.sections.push({ name: s.name, total_ms: +(s.total / 1000).toFixed(0), self, inclusive_app: incl });
    lines.push(`  ${s.name} (${(s.total / 1000).toFixed(0)} ms of samples, each at most ${Math.round(cap)} µs) — self time:`);
    for (const r of self) lines.push(`    ${r.pct.toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(6)} ms  ${r.fn}`);
    lines.push('    inclusive time of application functions:');
    for (const r of incl) lines.push(`    ${r.pct.toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(6)} ms  ${r.fn}`);
  }
  out.lines = lines;
  return out;
}
