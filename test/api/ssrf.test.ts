// Issue 9 finding 10, reproduced the way it was found: subscription URLs naming
// metadata, private and odd-form addresses, and a real name that resolves to loopback
// (this machine's own host name, through the real resolver). What is refused is
// refused at creation or at connect time with a reason in the attempt log, and the
// listener behind the address never sees a byte; the response excerpt kept is small.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestBackend;
let sink: Sink | undefined;
beforeAll(async () => {
  t = await startTestBackend({ retrySchedule: [] });
});
afterAll(() => t.destroy());
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const subscribe = (url: string) => t.api('POST', '/v2/webhooks', { url, type: 'webhook.test' });

async function firstAttempt(subId: string) {
  await t.api('POST', `/v2/webhooks/${subId}/test`);
  const d = await waitUntil('the attempt to end', async () => {
    const list = (await t.api('GET', `/v2/webhooks/${subId}/deliveries`)).body.data;
    return list[0]?.status === 'failed' || list[0]?.status === 'succeeded' ? list[0] : undefined;
  });
  return (await t.api('GET', `/v2/webhooks/${subId}/deliveries/${d.id}`)).body.attempt_log[0];
}

describe('subscription URLs (SSRF)', () => {
  it.each([
    ['https://169.254.169.254/latest/meta-data/', /never connects there/],
    ['https://0.0.0.0:8443/', /never connects there/],
    ['https://[::ffff:a9fe:a9fe]/', /never connects there/],
    ['https://2852039166/', /means 169\.254\.169\.254/],
    ['https://0x7f000001/', /means 127\.0\.0\.1/],
    ['https://0177.0.0.1/', /means 127\.0\.0\.1/],
  ])('refuses %s at creation with 422', async (url, message) => {
    const res = await subscribe(url);
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields[0]).toMatchObject({ field: 'url', message: expect.stringMatching(message) });
  });

  it('stores URLs normalised', async () => {
    const res = await subscribe('https://Hooks.Example.COM:443/a/../In Box?x=1#frag');
    expect(res.status).toBe(201);
    expect(res.body.url).toBe('https://hooks.example.com/In%20Box?x=1');
    expect((await t.api('GET', `/v2/webhooks/${res.body.public_id}`)).body.url).toBe('https://hooks.example.com/In%20Box?x=1');
  });

  it.each(['https://10.0.0.1:9/', 'https://192.168.0.1:9/', 'https://[fd00::1]:9/', 'https://[fe80::1]:9/'])(
    'refuses %s at connect time, with the reason and the setting in the attempt log',
    async (url) => {
      const sub = (await subscribe(url)).body;
      const attempt = await firstAttempt(sub.public_id);
      expect(attempt.response).toBeNull();
      expect(attempt.error).toMatch(/^Refused: .* is a (private network|link-local) address\..*COUNTERSIGN_ALLOW_PRIVATE_TARGETS=1/);
    },
  );

  it('refuses a real name that resolves to loopback, before any byte reaches the listener there', async (ctx) => {
    const name = hostname();
    const addr = await lookup(name).catch(() => undefined);
    if (!addr || addr.address !== '127.0.0.1' || name === 'localhost')
      return ctx.skip(`this machine's host name "${name}" does not resolve to 127.0.0.1 (${addr?.address ?? 'no address'})`);
    let connections = 0;
    const server: Server = createServer((_q, r) => r.end('internal secret'));
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const sub = (await subscribe(`https://${name}:${port}/`)).body;
      const attempt = await firstAttempt(sub.public_id);
      expect(attempt.error).toBe(
        `Refused: "${name}" resolves to 127.0.0.1, a loopback address. Use localhost or 127.0.0.1 for this machine, or set COUNTERSIGN_ALLOW_PRIVATE_TARGETS=1 to allow private network targets.`,
      );
      expect(connections).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('keeps only the first 4 KiB of a response in the delivery log', async () => {
    sink = await startSink();
    sink.respond = (_req, res) => res.end('s'.repeat(64 * 1024));
    const sub = (await subscribe(sink.url)).body;
    const attempt = await firstAttempt(sub.public_id);
    expect(attempt.response.status).toBe(200);
    expect(attempt.response.body).toBe('s'.repeat(4096));
    expect(attempt.response.truncated).toBe(true);
  });
});

describe('with COUNTERSIGN_ALLOW_PRIVATE_TARGETS on', () => {
  it('connects to a name that resolves to loopback', async (ctx) => {
    const name = hostname();
    const addr = await lookup(name).catch(() => undefined);
    if (!addr || addr.address !== '127.0.0.1') return ctx.skip(`host name "${name}" does not resolve to 127.0.0.1`);
    const open = await startTestBackend({ retrySchedule: [], allowPrivateTargets: true });
    try {
      sink = await startSink();
      // http:// is for loopback names only, so the sink is reached over https by name: the TLS
      // handshake fails (the sink speaks plain HTTP), which proves the connection was made.
      const port = new URL(sink.url).port;
      const sub = (await open.api('POST', '/v2/webhooks', { url: `https://${name}:${port}/`, type: 'webhook.test' })).body;
      await open.api('POST', `/v2/webhooks/${sub.public_id}/test`);
      const d = await waitUntil('the attempt to end', async () => {
        const list = (await open.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data;
        return list[0]?.status === 'failed' ? list[0] : undefined;
      });
      expect(d.last_error).not.toMatch(/Refused/);
    } finally {
      await open.destroy();
    }
  });
});
