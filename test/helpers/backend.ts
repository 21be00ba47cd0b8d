// A real backend in-process for API tests: port 0 on loopback, a fresh temp data
// directory (the real lowdb file, never an in-memory adapter), and a tiny fetch helper.
import { afterEach } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendConfig } from '../../src-main/backend/config.js';
import { testConfig } from './config.js';
import { createBackend, type Backend, type BackendAddresses, type BackendOptions } from '../../src-main/backend/index.js';
import { callServiceApi, consoleCaller, type ApiResponse } from './http.js';
import { ensureCompanyAdmin } from '../../src-main/backend/domain/api-keys.js';

export type { ApiResponse } from './http.js';

export const ADMIN_KEY = 'cs_test_admin_key_0123456789abcdef';

export interface TestBackend {
  backend: Backend;
  urls: BackendAddresses;
  dataDir: string;
  /** Calls the service API; `key` defaults to the seeded admin key (null: no key). */
  api: (method: string, path: string, body?: unknown, key?: string | null, headers?: Record<string, string>) => Promise<ApiResponse>;
  /** Calls the console API (/console/api…) with this backend's console token. */
  consoleApi: (method: string, path: string, body?: unknown) => Promise<ApiResponse>;
  stop: () => Promise<void>;
  /** Stops and deletes the data directory. */
  destroy: () => Promise<void>;
}

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'countersign-test-'));
}

export async function startTestBackend(
  overrides: Partial<BackendConfig> = {},
  dataDir?: string,
  options: Pick<BackendOptions, 'clock' | 'rendererDir' | 'keyring' | 'env' | 'instanceFile'> = {},
): Promise<TestBackend> {
  const dir = dataDir ?? (await makeDataDir());
  const backend = createBackend(
    testConfig(dir, { adminKey: ADMIN_KEY, retrySchedule: [0.05, 0.1], deliveryTimeoutMs: 2000, ...overrides }),
    { tunnelAutostart: false, ...options },
  );
  const urls = await backend.start();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await backend.stop();
  };
  return {
    backend,
    urls,
    dataDir: dir,
    stop,
    destroy: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
    api: (method, path, body, key = ADMIN_KEY, headers = {}) => callServiceApi(urls.api_url, method, path, body, key, headers),
    consoleApi: consoleCaller(urls.api_url, backend.consoleToken),
  };
}

/**
 * What a crash right now would leave: a copy of the data directory as it is on disk
 * this instant (without the lock, whose owner would be gone), opened by a fresh store.
 */
export async function crashCopy(dataDir: string): Promise<string> {
  const { cp, rm: remove } = await import('node:fs/promises');
  const copy = await makeDataDir();
  await cp(dataDir, copy, { recursive: true });
  await remove(join(copy, 'countersign.lock'), { force: true });
  return copy;
}

/** Every byte the store and logs keep in a data directory, as text (for "never stored" checks). */
export async function allStoredText(dataDir: string): Promise<string> {
  const { readdir, readFile } = await import('node:fs/promises');
  const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const texts = await Promise.all(files.map((e) => readFile(join(e.parentPath, e.name), 'utf8')));
  return texts.join('\n');
}

/**
 * An admin key in another company, made the way the person running the service seeds
 * one (the API makes keys only in the caller's own company): for isolation tests.
 */
export async function otherCompanyAdmin(backend: Backend, company: string): Promise<string> {
  const key = `cs_test_other_${randomBytes(12).toString('hex')}`;
  const { store, history, bus, clock, outbox } = backend;
  await ensureCompanyAdmin({ store, history, bus, clock, outbox, appUrl: () => backend.addresses().app_url }, company, key, 'test seed');
  return key;
}

/**
 * For a test file: `start(dir?, overrides?)` starts a backend that is destroyed after each
 * test; a test that stops one itself takes it off `running` (its data directory then stays
 * for the next start).
 */
export function backendsPerTest() {
  const running: TestBackend[] = [];
  afterEach(async () => {
    while (running.length) await running.pop()!.destroy();
  });
  async function start(dir?: string, overrides: Partial<BackendConfig> = {}) {
    const t = await startTestBackend(overrides, dir);
    running.push(t);
    return t;
  }
  return { start, running };
}
