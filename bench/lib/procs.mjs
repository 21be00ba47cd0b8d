// Child processes of the benchmark: started with `node`, each announcing itself with one
// JSON line on stdout, all stopped (by their own pid, never by name) when the run ends.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const children = new Set();

/** Starts `node [nodeArgs] script [args]` and resolves with { child, ready } once it prints a JSON line with "ready". */
export function startNode(script, args = [], { env = process.env, nodeArgs = [], timeoutMs = 30_000, name = script } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => fail(new Error(`${name}: no ready line within ${timeoutMs} ms`)), timeoutMs);
    function fail(err) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${err.message}\n--- stderr of ${name} ---\n${stderr}`));
    }
    child.once('exit', (code) => fail(new Error(`${name} exited with ${code} before it was ready`)));
    child.stdout.on('data', function onData(chunk) {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let msg;
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg && msg.ready) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          child.once('exit', () => children.delete(child));
          child.stdout.off('data', onData);
          child.stdout.resume();
          resolve({ child, ready: msg, stderr: () => stderr });
          return;
        }
      }
    });
  });
}

/** Runs a script to completion and parses its last stdout line as JSON. */
export function runNode(script, args = [], { timeoutMs = 120_000, name = script } = {}) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => {
    out += c;
  });
  child.stderr.on('data', (c) => {
    err += c;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: still running after ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      const lines = out.trim().split('\n');
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve(JSON.parse(lines[lines.length - 1]));
      } catch (e) {
        reject(new Error(`${name} failed (${e.message})\n${err}`));
      }
    });
  });
}

/** Resident set size of a process in bytes (Linux /proc), or null. */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Stops one child with SIGTERM, then SIGKILL after `graceMs`. Resolves with its exit code. */
export function stopChild(child, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

/** Last resort on error or Ctrl-C: every child this run started, by its own handle. */
export function killAllChildren() {
  for (const c of children) c.kill('SIGKILL');
}

/**
 * CPU time (user + system) a process has used so far, in seconds (Linux /proc, 100 ticks/s), or null.
 * `mainOnly`: its main thread's alone (where JavaScript runs), without V8's worker threads (concurrent
 * and parallel garbage collection, compilation) and libuv's pool (file system calls).
 */
export function cpuSeconds(pid, mainOnly = false) {
  try {
    const stat = readFileSync(mainOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
