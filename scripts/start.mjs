#!/usr/bin/env node
// `npm start`: build if out/ is missing or older than the sources, then run the desktop
// app where Electron's binary is present; otherwise try once to fetch it and, if that
// cannot be done, say why in ONE line and run the headless console instead (same
// arguments and environment, signals forwarded, its exit code returned). Both get the dev
// admin key cs_dev_admin unless COUNTERSIGN_ADMIN_KEY is set; package.json's `exec` makes npm's
// forwarded SIGTERM reach this process, and losing the parent stops the child too.
//
// Electron's binary is looked up by reading node_modules/electron/path.txt, never by
// `require('electron')`: from plain Node that require starts a download by itself.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { ROOT, ensureBuilt } from './build-state.mjs';

/** Offline, the fetch fails in well under a second; online it is a ~100 MB download. */
const FETCH_TIMEOUT_MS = Number(process.env.COUNTERSIGN_ELECTRON_FETCH_TIMEOUT_MS) || 120_000;

/** Where Electron's binary is, or null and why not. */
export function electronBinary(root = ROOT, env = process.env) {
  const pkgDir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkgDir, 'package.json'))) return { path: null, reason: 'the electron package is not installed (run npm install)' };
  let relative = '';
  try {
    relative = readFileSync(join(pkgDir, 'path.txt'), 'utf8').trim();
  } catch {
    // Never downloaded: install scripts are skipped (.npmrc ignore-scripts).
  }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const path = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    return existsSync(path) ? { path, reason: '' } : { path: null, reason: `ELECTRON_OVERRIDE_DIST_PATH has no binary at ${path}` };
  }
  if (!relative) return { path: null, reason: 'it was never downloaded' };
  const path = join(pkgDir, 'dist', relative);
  return existsSync(path) ? { path, reason: '' } : { path: null, reason: `${path} is missing` };
}

/** Linux needs a display server for a window. */
export function hasDisplay(env = process.env, platform = process.platform) {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The headless entry's ready line (docs/api.md section 2), or null. */
export function parseReadyLine(line) {
  try {
    const value = JSON.parse(line);
    return value && value.ready === true && typeof value.console_url === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The most telling line of a failed fetch's output (the error, not the stack). */
export function fetchFailureReason(output, code, timedOut) {
  if (timedOut) return `no answer within ${Math.round(FETCH_TIMEOUT_MS / 1000)} s`;
  const lines = String(output)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  const line = lines.find((l) => /error|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|certificate|refused/i.test(l)) ?? lines[0];
  return (line ?? `the installer exited with code ${code}`).slice(0, 200);
}

/** One attempt to fetch Electron's binary with its own installer. */
export function fetchElectronOnce(root = ROOT) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    // Said only when it is really downloading (offline it fails before this fires).
    const slow = setTimeout(() => console.error("Fetching Electron's binary (once; about 100 MB)…"), 1500);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, FETCH_TIMEOUT_MS);
    child.on('error', (err) => (output += String(err)));
    child.on('close', (code) => {
      clearTimeout(slow);
      clearTimeout(timer);
      done(code === 0 && !timedOut ? { ok: true, reason: '' } : { ok: false, reason: fetchFailureReason(output, code, timedOut) });
    });
  });
}

/** Calls onOrphaned once when this process's parent goes away (its ppid changes). */
export function watchParent(onOrphaned, everyMs = 250) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, everyMs);
  timer.unref();
  return timer;
}

/**
 * The environment for what `npm start` runs: the README's dev admin key (cs_dev_admin)
 * unless COUNTERSIGN_ADMIN_KEY is set (set it empty for none). Safe because every
 * listener is on loopback; docs/api.md says so.
 */
export function startEnv(env = process.env) {
  return { ...env, COUNTERSIGN_ADMIN_KEY: env.COUNTERSIGN_ADMIN_KEY ?? DEV_ADMIN_KEY };
}

export const DEV_ADMIN_KEY = 'cs_dev_admin';

/** Runs a child in its own process group and forwards each signal to it exactly once. */
function runChild(command, args, { env, onStdoutLine } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env,
      // Its own group: a terminal's Ctrl-C reaches only us, and we pass it on once.
      detached: true,
      stdio: ['ignore', onStdoutLine ? 'pipe' : 'inherit', 'inherit'],
    });
    const forward = (signal) => child.kill(signal);
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const s of signals) process.on(s, forward);
    const killOnExit = () => child.exitCode === null && child.kill('SIGTERM');
    process.on('exit', killOnExit);
    // A parent that dies without passing its signal on (npm under a shell that does not
    // exec, npm killed hard) leaves us orphaned: stop the child as SIGTERM would.
    const watch = watchParent(() => forward('SIGTERM'));
    if (onStdoutLine) {
      let buffer = '';
      child.stdout.on('data', (chunk) => {
        process.stdout.write(chunk);
        buffer += chunk;
        let nl;
        while ((nl = buffer.indexOf('\n')) !== -1) {
          onStdoutLine(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
        }
      });
    }
    child.on('error', (err) => {
      console.error(`countersign: could not run ${command}: ${err.message}`);
      done(1);
    });
    child.on('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      process.off('exit', killOnExit);
      clearInterval(watch);
      done(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  if (!ensureBuilt()) return 1;

  let why = '';
  let bin = electronBinary();
  if (process.env.COUNTERSIGN_HEADLESS === '1') {
    why = 'COUNTERSIGN_HEADLESS=1 is set';
  } else if (!bin.path) {
    if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1') {
      why = `Electron's binary is not available (${bin.reason}; ELECTRON_SKIP_BINARY_DOWNLOAD=1, so no download was tried)`;
    } else {
      const fetched = await fetchElectronOnce();
      bin = electronBinary();
      if (!bin.path) why = `Electron's binary is not available (download failed: ${fetched.ok ? bin.reason : fetched.reason})`;
    }
  }
  if (!why && !hasDisplay()) why = 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)';

  if (!why) {
    const env = startEnv();
    // Set, it would make Electron a plain Node and ignore the app.
    delete env.ELECTRON_RUN_AS_NODE;
    return runChild(bin.path, [ROOT, ...args], { env });
  }

  console.error(`${why}; running the headless console instead.`);
  return runChild(process.execPath, [join(ROOT, 'out', 'main', 'headless.js'), ...args], {
    env: startEnv(),
    onStdoutLine(line) {
      const ready = parseReadyLine(line);
      if (ready) console.error(`Countersign console: ${ready.console_url}  (service API: ${ready.api_url}; Ctrl-C stops it)`);
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
