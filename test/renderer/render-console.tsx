// Renders the console against a REAL backend started in-process on 127.0.0.1 (port 0,
// temp data folder): the page's client calls it over HTTP exactly as in a browser.
// Each render gets a fresh QueryClient.
import type { ReactElement } from 'react';
import { cleanup, render } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { configureClient } from '../../src-renderer/api/client.js';
import { createQueryClient } from '../../src-renderer/api/query-client.js';
import { App } from '../../src-renderer/App.js';
import { loadNodeHelper } from './node-helper.js';

export const CONSOLE_TOKEN = 'renderer-test-console-token';

/** What these tests use of test/helpers/backend.ts's TestBackend. */
export interface TestBackend {
  urls: { api_url: string };
  api: (
    method: string,
    path: string,
    body?: unknown,
    key?: string | null,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: any; text: string }>;
  /** The console API (/console/api…), which is not the service's contract: no OpenAPI check. */
  consoleApi: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any; text: string }>;
  destroy: () => Promise<void>;
}

export async function startConsoleBackend(): Promise<TestBackend> {
  const { startTestBackend } = await loadNodeHelper<{ startTestBackend: (o: { consoleToken: string }) => Promise<TestBackend> }>(
    'backend.ts',
  );
  const tb = await startTestBackend({ consoleToken: CONSOLE_TOKEN });
  configureClient({ base: tb.urls.api_url, consoleToken: CONSOLE_TOKEN });
  return tb;
}

export function renderConsole(path: string, ui: ReactElement = <App />) {
  window.history.replaceState(null, '', path);
  const client = createQueryClient({ retry: false });
  return { client, ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>) };
}

export async function makeDocument(tb: TestBackend, title: string, recipients = [{ name: 'Ada Lovelace', email: 'ada@example.com' }]) {
  const res = await tb.api('POST', '/v2/test_helpers/documents', { title, recipients });
  if (res.status !== 201) throw new Error(`document not made: ${res.text}`);
  return res.body as { public_id: string; recipients: { public_id: string }[] };
}

/**
 * The usual lifecycle of a file of screen tests: one real backend for the file (window
 * scrolling stubbed, jsdom has none), the page cleaned up after each test. Call at the
 * top of the file; the getter gives the backend inside tests.
 */
export function consoleBackendForFile(): () => TestBackend {
  let tb: TestBackend | undefined;
  beforeAll(async () => {
    tb = await startConsoleBackend();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });
  afterEach(() => cleanup());
  afterAll(async () => {
    await tb?.destroy();
  });
  return () => tb!;
}
