// Throughput of the engine against a plain undici client, both POSTing the same bodies
// to the same receiver (a separate Node process, so it does not share our event loop).
// A measurement, not a correctness test: it runs only with COUNTERSIGN_BENCH=1, e.g.
//   COUNTERSIGN_BENCH=1 npx vitest run test/unit/delivery/throughput.test.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Pool } from 'undici';
import { createHarness, until, type Harness } from './harness.js';

const N = Number(process.env.COUNTERSIGN_BENCH_N ?? 20_000);
const RECEIVER = `
const http = require('node:http');
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('{"ok":true}')); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

describe.skipIf(!process.env.COUNTERSIGN_BENCH)('delivery throughput', () => {
  let child: ChildProcess;
  let url: string;
  let h: Harness;
  const body = JSON.stringify({
    id: 'evt_bench',
    type: 'document.updated',
    timestamp: new Date().toISOString(),
    data: { document: { public_id: 'doc_1', title: 'x'.repeat(600), recipients: [{ name: 'A', email: 'a@example.com' }] } },
  });

  beforeAll(async () => {
    child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
    url = `http://127.0.0.1:${chunk.toString().trim()}/hook`;
  });
  afterAll(async () => {
    await h?.cleanup();
    child.kill();
  });

  it('plain undici vs the engine', async () => {
    // Baseline: nothing stored, nothing signed, same concurrency as the engine's default.
    const pool = new Pool(new URL(url).origin, { connections: 64 });
    let i = 0;
    let t0 = performance.now();
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (i++ < N) {
          const res = await pool.request({ path: '/hook', method: 'POST', headers: { 'content-type': 'application/json' }, body });
          await res.body.text();
        }
      }),
    );
    const plain = N / ((performance.now() - t0) / 1000);
    await pool.close();

    h = await createHarness({ retrySchedule: [5] });
    const sub = await h.subscribe(url);
    // Load N pending deliveries through the outbox, then let the engine drain them.
    const data = JSON.parse(body).data as Record<string, unknown>;
    for (let k = 0; k < N; k++) h.outbox.enqueue({ company_id: 'co_test', type: 'document.updated', document_id: 'doc_1', data }, [sub]);
    await h.store.commit();
    let done = 0;
    h.bus.subscribe((c) => {
      if (c.kind === 'delivery' && c.status === 'succeeded') done++;
    });
    t0 = performance.now();
    h.engine.start();
    await until(() => done === N, 120_000, 'all deliveries');
    const engine = N / ((performance.now() - t0) / 1000);
    await until(() => h.outbox.size === 0, 10_000, 'schedule cleared');
    console.log(
      `deliveries: ${N}; plain undici ${Math.round(plain)}/s; engine ${Math.round(engine)}/s (${Math.round((100 * engine) / plain)}%)`,
    );
    expect(engine).toBeGreaterThan(0);
  });
});
