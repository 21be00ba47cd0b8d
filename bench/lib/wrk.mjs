// Row 1's load generator: wrk (https://github.com/wg/wrk, Debian/Ubuntu package `wrk`),
// a C load generator far faster than any Node client, so the bare node:http reference can
// be driven to a full core. Each window reports, beside wrk's own figures, the CPU used by
// the server under test and by wrk (from /proc/<pid>/stat, sampled over the window) and
// how busy the whole machine was (/proc/stat), so a reader can see whether the server was
// the bottleneck (≈100 % of one core: Node serves on one thread) or was starved.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpuSeconds } from './procs.mjs';

export const WRK = process.env.WRK ?? '/usr/bin/wrk';

export function wrkMissing() {
  return existsSync(WRK)
    ? null
    : `wrk not found at ${WRK}: install it (Debian/Ubuntu: sudo apt-get install wrk; macOS: brew install wrk) or set WRK=/path/to/wrk`;
}

/** Busy and total CPU ticks of the whole machine (all cores), from /proc/stat. */
function machineTicks() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3] + (f[4] ?? 0);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

function parseDuration(s) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[m[2]];
}

/** The figures of wrk's text report (with --latency). */
export function parseWrk(text) {
  const num = (re) => {
    const m = re.exec(text);
    return m ? Number(m[1]) : null;
  };
  const pcts = {};
  for (const m of text.matchAll(/^\s+(50|75|90|99)%\s+(\S+)/gm)) pcts[`p${m[1]}`] = parseDuration(m[2]);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return {
    requests: num(/(\d+) requests in/),
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    latencyMs: pcts,
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/) ?? 0,
    socketErrors,
  };
}

/**
 * One wrk window of `seconds` against `url`, with the server's pid watched.
 * Resolves with wrk's figures plus cpu: { server, wrk, machine } in % of one core.
 */
export function runWrk({ url, headers = {}, threads, connections, seconds, serverPid }) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency', '--timeout', '5s'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const child = spawn(WRK, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const t0 = performance.now();
  const srv0 = cpuSeconds(serverPid);
  const m0 = machineTicks();
  let wrkCpu = 0;
  const sampler = setInterval(() => {
    wrkCpu = cpuSeconds(child.pid) ?? wrkCpu;
  }, 100);
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + 20) * 1000);
    child.once('exit', (code) => {
      clearTimeout(guard);
      clearInterval(sampler);
      const wall = (performance.now() - t0) / 1000;
      const srv1 = cpuSeconds(serverPid);
      const m1 = machineTicks();
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${err || out}`));
      const r = parseWrk(out);
      const pct = (cpu) => (cpu == null ? null : +((cpu / wall) * 100).toFixed(1));
      resolve({
        ...r,
        wallSeconds: +wall.toFixed(2),
        startedAt: performance.timeOrigin + t0,
        endedAt: performance.timeOrigin + t0 + wall * 1000,
        cpu: {
          server: pct(srv1 != null && srv0 != null ? srv1 - srv0 : null),
          wrk: pct(wrkCpu),
          // Whole machine, in % of one core (200 % = both cores of a 2-core machine busy).
          machine: m0 && m1 ? +(((m1.busy - m0.busy) / (m1.total - m0.total)) * 100 * cpuCount()).toFixed(1) : null,
        },
        raw: out,
      });
    });
  });
}

function cpuCount() {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8').match(/^processor\s*:/gm).length;
  } catch {
    return 1;
  }
}
