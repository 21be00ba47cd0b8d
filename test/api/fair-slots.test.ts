// Issue 9 finding 3: four hanging subscriptions (4 x 16 per-subscription slots = all 64
// global slots) stopped deliveries to every healthy subscription, in every company.
// Reproduced as found: real loopback endpoints that accept and never answer, in one
// company, and a healthy subscription of another company sent 200 events while they hang.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An endpoint that reads every request and never answers it. */
async function hangingEndpoint(): Promise<{ url: string; open: () => number }> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: Server = createServer(() => {
    requests++;
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, open: () => requests };
}

const doc = (title: string) => ({ title, recipients: [{ name: 'a', email: 'a@b.co' }] });

async function healthyDeliveredWhileHanging(hanging: number): Promise<{ ms: number; sink: Sink; t: TestBackend; hung: number }> {
  // A deadline far longer than the test: the hanging attempts hold their slots throughout.
  const t = await startTestBackend({ deliveryTimeoutMs: 60_000 });
  cleanups.push(() => t.destroy());
  const endpoints: { url: string; open: () => number }[] = [];
  for (let i = 0; i < hanging; i++) {
    const e = await hangingEndpoint();
    endpoints.push(e);
    expect((await t.api('POST', '/v2/webhooks', { url: e.url, type: 'all' })).status).toBe(201);
  }
  // 20 events each: more than a subscription's 16 slots, so together they ask for the whole pool.
  for (let i = 0; i < 20; i++) await t.api('POST', '/v2/test_helpers/documents', doc(`hang ${i}`));
  const expected = Math.min(16, 20) * hanging;
  const held = () => endpoints.reduce((n, e) => n + e.open(), 0);
  // The hanging ones have taken what they may before the healthy one starts.
  const deadline = Date.now() + 10_000;
  while (held() < Math.min(expected, 56) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const sink = await startSink();
  cleanups.push(() => sink.close());
  const keyB = await otherCompanyAdmin(t.backend, 'Healthy Co');
  expect((await t.api('POST', '/v2/webhooks', { url: `${sink.url}/ok`, type: 'document.created' }, keyB)).status).toBe(201);
  const started = Date.now();
  for (let i = 0; i < 200; i++) await t.api('POST', '/v2/test_helpers/documents', doc(`healthy ${i}`), keyB);
  await sink.waitFor(200, 20_000);
  return { ms: Date.now() - started, sink, t, hung: held() };
}

describe('global delivery slots', () => {
  it.each([4, 8])('deliver all 200 events of a healthy subscription while %i others hang', async (hanging) => {
    const { ms, sink, t, hung } = await healthyDeliveredWhileHanging(hanging);
    expect(sink.received).toHaveLength(200);
    // Creating the 200 documents is most of it; before the fix, 14 of 200 arrived in 10 s with 4 hanging, 6 with 8.
    expect(ms).toBeLessThan(10_000);
    // The hanging subscriptions kept their slots (nothing timed out): they did hold most of the pool.
    expect(hung).toBeGreaterThanOrEqual(48);
    expect(t.backend.engine.inFlight()).toBeLessThanOrEqual(64);
  });
});
