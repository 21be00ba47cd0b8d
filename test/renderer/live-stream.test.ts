// The live link against a real HTTP server on loopback that misbehaves on purpose:
// it drops the stream, refuses the token, or goes silent.
import { afterEach, describe, expect, it } from 'vitest';
import { LiveStream, type LiveState } from '../../src-renderer/api/live-stream.js';
import type { Change } from '@shared/api-types.js';
import { loadNodeHelper } from './node-helper.js';

interface ScriptedResponse {
  writeHead(status: number, headers?: Record<string, string>): void;
  write(chunk: string): void;
  end(chunk?: string): void;
}
type Handler = (n: number, res: ScriptedResponse, token: string | undefined) => void;

let server: { origin: string; close(): Promise<void> } | undefined;

async function serve(handler: Handler): Promise<string> {
  const { startScriptedServer } = await loadNodeHelper<{
    startScriptedServer: (
      h: (n: number, res: ScriptedResponse, headers: Record<string, unknown>) => void,
    ) => Promise<{ origin: string; close(): Promise<void> }>;
  }>('scripted-http.ts');
  server = await startScriptedServer((n, res, headers) => handler(n, res, headers['x-console-token'] as string | undefined));
  return `${server.origin}/console/api/stream`;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const until = async (cond: () => boolean, ms = 4000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

function sse(res: ScriptedResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
}

describe('LiveStream', () => {
  it('delivers changes, reconnects after a drop, and asks for a full refresh then', async () => {
    const connections: (string | undefined)[] = [];
    const url = await serve((n, res, token) => {
      connections.push(token);
      sse(res);
      res.write('retry: 50\n\nevent: ready\ndata: {}\n\n');
      if (n === 1) {
        res.write('event: change\ndata: {"kind":"document","company_id":"co","id":"doc_1"}\n\n');
        setTimeout(() => res.end(), 30); // the drop
      }
    });
    const changes: Change[] = [];
    const states: LiveState[] = [];
    let refreshes = 0;
    const live = new LiveStream({
      url,
      token: () => 'tok',
      onChange: (c) => changes.push(c),
      onReconnected: () => refreshes++,
      onState: (s) => states.push(s),
    });
    live.start();
    await until(() => refreshes === 1);
    expect(changes).toEqual([{ kind: 'document', company_id: 'co', id: 'doc_1' }]);
    expect(connections).toEqual(['tok', 'tok']);
    expect(states).toEqual(['connecting', 'live', 'reconnecting', 'live']);
    live.stop();
    expect(live.current).toBe('stopped');
  });

  it('stops trying when the token is refused', async () => {
    let count = 0;
    const url = await serve((_n, res) => {
      count++;
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"unauthorized","message":"no"}}');
    });
    const states: LiveState[] = [];
    const live = new LiveStream({
      url,
      token: () => 'old',
      onChange: () => undefined,
      onReconnected: () => undefined,
      onState: (s) => states.push(s),
    });
    live.start();
    await until(() => live.current === 'unauthorized');
    await new Promise((r) => setTimeout(r, 200));
    expect(count).toBe(1);
    expect(states).toEqual(['connecting', 'unauthorized']);
  });

  it('declares a silent link dead and connects again', async () => {
    let count = 0;
    const url = await serve((_n, res) => {
      count++;
      sse(res);
      res.write('retry: 20\n\nevent: ready\ndata: {}\n\n'); // then nothing, not even heartbeats
    });
    const live = new LiveStream({
      url,
      token: () => 't',
      onChange: () => undefined,
      onReconnected: () => undefined,
      silenceTimeoutMs: 150,
    });
    live.start();
    await until(() => count >= 2);
    live.stop();
    expect(count).toBeGreaterThanOrEqual(2);
  });
});
