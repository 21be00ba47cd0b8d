// The service's V8 memory settings (backend/memory-settings.ts) hold in the built
// headless entry started as users start it (`node out/main/headless.js`, no flag, no
// environment variable): V8 itself, asked to trace its heap decisions, reports the
// growing factor the settings fix. The full collection is asked for through Node's
// inspector (opened by SIGUSR1 on a free loopback port), as the benchmark does; such a
// collection uses V8's smallest factor (1.1) unless the flag says otherwise.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADLESS_ADMIN_KEY, HEADLESS_ENTRY } from '../helpers/headless.js';
import { openInspector } from '../helpers/inspector.js';
import { waitUntil } from '../helpers/wait.js';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BURST_BACKLOG } from '../../src-main/backend/idle-collector.js';
import { BURST_HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT } from '../../src-main/backend/memory-settings.js';
import { callServiceApi } from '../helpers/http.js';

/** The factors of V8's "[HeapController] Limit: … (factor)" trace lines in `text`. */
const limitFactors = (text: string) => [...text.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)].map((m) => Number(m[1]));

describe('memory settings', () => {
  it('the headless entry started directly collects with the fixed heap growing factor', async () => {
    if (!existsSync(HEADLESS_ENTRY)) throw new Error('out/main/headless.js is missing: run `npm run build` first');
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-memory-'));
    // The two flags only trace and let SIGUSR1 open an inspector on a free port; they set nothing.
    const child = spawn(
      process.execPath,
      ['--trace-gc-verbose', '--inspect-port=127.0.0.1:0', HEADLESS_ENTRY, '--port', '0', '--receiver-port', '0', '--data-dir', dataDir],
      { env: { ...process.env, COUNTERSIGN_ADMIN_KEY: HEADLESS_ADMIN_KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await waitUntil('the ready line', async () => /^\{"ready":true/m.test(out), 20_000);
      const before = out.length;
      const inspector = await openInspector(child, () => err);
      expect((await inspector.call('HeapProfiler.collectGarbage')).error).toBeUndefined();
      inspector.close();
      const factors = await waitUntil('a heap limit traced after the collection', async () => {
        const f = limitFactors(out.slice(before));
        return f.length > 0 && f;
      });
      expect(factors).toEqual(factors.map(() => 1 + HEAP_GROWING_PERCENT / 100));
    } finally {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // While a burst of deliveries waits (BURST_BACKLOG or more), V8 sets the old generation's
  // limits by its own rule (BURST_HEAP_GROWING_PERCENT = 0): a memory-reducing collection
  // then uses V8's smallest factor, 1.1. Once the burst is worked off, the idle collector's
  // collection and every later one use the fixed factor again.
  it('lets V8 set the heap limits while a burst of deliveries waits, and fixes the factor again once it is worked off', async () => {
    if (!existsSync(HEADLESS_ENTRY)) throw new Error('out/main/headless.js is missing: run `npm run build` first');
    expect(BURST_HEAP_GROWING_PERCENT).toBe(0);
    // The endpoint holds every request until told to answer (as the benchmark's receiver can).
    const held: ServerResponse[] = [];
    let answering = false;
    const endpoint = createServer((req, res) => {
      req.resume();
      if (answering) res.end('ok');
      else held.push(res);
    });
    await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`;
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-memory-'));
    const child = spawn(
      process.execPath,
      ['--trace-gc-verbose', '--inspect-port=127.0.0.1:0', HEADLESS_ENTRY, '--port', '0', '--receiver-port', '0', '--data-dir', dataDir],
      { env: { ...process.env, COUNTERSIGN_ADMIN_KEY: HEADLESS_ADMIN_KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await waitUntil('the ready line', async () => /^\{"ready":true/m.test(out), 20_000);
      const apiUrl = (JSON.parse(/^\{"ready":true.*$/m.exec(out)![0]) as { api_url: string }).api_url;
      const api = (method: string, path: string, body?: unknown) => callServiceApi(apiUrl, method, path, body, HEADLESS_ADMIN_KEY);
      const doc = (
        await api('POST', '/v2/test_helpers/documents', { title: 'Burst', recipients: [{ name: 'Ada', email: 'ada@example.com' }] })
      ).body.public_id as string;
      const SUBS = 50;
      for (let i = 0; i < SUBS; i++) expect((await api('POST', '/v2/webhooks', { url: `${hook}/${i}`, type: 'all' })).status).toBe(201);
      const puts = Math.ceil((BURST_BACKLOG * 1.5) / SUBS);
      for (let i = 0; i < puts; i++) expect((await api('PUT', `/documents/${doc}`, { title: `Burst ${i}` })).status).toBe(200);
      await waitUntil('requests held at the endpoint', async () => held.length > 0);
      const factorAfter = async (what: string) => {
        const before = out.length;
        const inspector = await openInspector(child, () => err);
        expect((await inspector.call('HeapProfiler.collectGarbage')).error).toBeUndefined();
        inspector.close();
        return waitUntil(what, async () => limitFactors(out.slice(before)).at(-1));
      };
      // The burst waits: after a first collection (whose end tells the settings), V8's own factor.
      await factorAfter('a heap limit traced in the burst');
      expect(await factorAfter('a heap limit traced in the burst, again')).toBe(1.1);
      // Worked off (every delivery answered): the idle collector's collection and the later ones use the fixed factor.
      const mark = out.length;
      answering = true;
      for (const res of held.splice(0)) res.end('ok');
      await waitUntil(
        'a heap limit with the fixed factor after the burst',
        async () => limitFactors(out.slice(mark)).includes(1 + HEAP_GROWING_PERCENT / 100),
        30_000,
      );
      expect(await factorAfter('a heap limit traced after the burst')).toBe(1 + HEAP_GROWING_PERCENT / 100);
    } finally {
      child.kill('SIGTERM');
      await exited;
      endpoint.close();
      endpoint.closeAllConnections();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
