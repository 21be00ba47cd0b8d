// Starts the BUILT headless entry (out/main/headless.js, from `npm run build`) as a
// child process, the way scripts and CI use it, and reads its JSON ready line.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { ReadyLine } from '../../scripts/start.mjs';
import { callServiceApi, consoleCaller, type ApiResponse } from './http.js';

export const HEADLESS_ENTRY = resolve('out/main/headless.js');
export const HEADLESS_ADMIN_KEY = 'cs_headless_admin_key_0123456789';

export interface Headless {
  urls: ReadyLine;
  adminKey: string;
  dataDir: string;
  child: ChildProcess;
  stderr: () => string;
  /** Calls the service API with the seeded admin key. */
  api: (method: string, path: string, body?: unknown) => Promise<ApiResponse>;
  /** The console's per-run token (from the ready line's console_url). */
  consoleToken: string;
  /** Calls the console API (/console/api…) with that token. */
  consoleApi: (method: string, path: string, body?: unknown) => Promise<ApiResponse>;
  /** SIGTERM, then resolves with the exit code. */
  stop: () => Promise<number | null>;
}

export async function startHeadless(
  opts: { dataDir?: string; env?: Record<string, string>; args?: string[]; keepData?: boolean } = {},
): Promise<Headless> {
  if (!existsSync(HEADLESS_ENTRY)) throw new Error('out/main/headless.js is missing: run `npm run build` first');
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'countersign-headless-')));
  const child = spawn(
    process.execPath,
    [HEADLESS_ENTRY, '--port', '0', '--receiver-port', '0', '--data-dir', dataDir, ...(opts.args ?? [])],
    {
      env: { ...process.env, COUNTERSIGN_ADMIN_KEY: HEADLESS_ADMIN_KEY, COUNTERSIGN_RETRY_SCHEDULE: '0.2,0.5', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const urls = await new Promise<ReadyLine>((resolveReady, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`headless did not get ready in 20 s: ${err}`)), 20000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolveReady(JSON.parse(line));
      } catch {
        reject(new Error(`not a ready line: ${line}`));
      }
    });
    void exited.then((code) => reject(new Error(`headless exited (${code}) before ready: ${err}`)));
  });
  const consoleToken = new URLSearchParams(new URL(urls.console_url).hash.slice(1)).get('token') ?? '';
  return {
    urls,
    adminKey: HEADLESS_ADMIN_KEY,
    dataDir,
    child,
    stderr: () => err,
    api: (method, path, body) => callServiceApi(urls.api_url, method, path, body, HEADLESS_ADMIN_KEY),
    consoleToken,
    consoleApi: consoleCaller(urls.api_url, consoleToken),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!opts.keepData && !opts.dataDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
