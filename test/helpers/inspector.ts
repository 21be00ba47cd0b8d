// Node's inspector in a child process started with `--inspect-port=127.0.0.1:0` (which
// starts nothing): SIGUSR1 opens it on a free loopback port, whose address the child
// prints on stderr; DevTools protocol calls then go over one WebSocket. Used by the
// memory tests to ask the built service's own V8 what it does.
import type { ChildProcess } from 'node:child_process';
import { WebSocket } from 'undici';
import { waitUntil } from './wait.js';

export interface InspectorClient {
  /** One protocol call; resolves with its answer ({ result } or { error }). */
  call(method: string, params?: Record<string, unknown>): Promise<{ result?: unknown; error?: unknown }>;
  /** Evaluates `expression` in the process (a promise is awaited) and returns its value, JSON-compatible. */
  evaluate<T>(expression: string): Promise<T>;
  close(): void;
}

/** Opens the inspector of `child` (SIGUSR1) and connects to it; `stderr()` is the child's stderr so far. */
export async function openInspector(child: ChildProcess, stderr: () => string): Promise<InspectorClient> {
  child.kill('SIGUSR1');
  const url = await waitUntil('the inspector address', async () => stderr().match(/ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/)?.[0]);
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', () => reject(new Error(`inspector at ${url}: could not connect`)), { once: true });
  });
  let id = 0;
  const pending = new Map<number, (answer: { result?: unknown; error?: unknown }) => void>();
  ws.addEventListener('message', (m) => {
    const msg = JSON.parse(String(m.data)) as { id?: number; result?: unknown; error?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg);
    if (msg.id !== undefined) pending.delete(msg.id);
  });
  const call: InspectorClient['call'] = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    call,
    async evaluate<T>(expression: string) {
      const answer = await call('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      const r = answer.result as { result?: { value?: unknown }; exceptionDetails?: unknown } | undefined;
      if (answer.error || !r || r.exceptionDetails) throw new Error(`evaluate failed: ${JSON.stringify(answer.error ?? r)}`);
      return r.result?.value as T;
    },
    close: () => ws.close(),
  };
}
