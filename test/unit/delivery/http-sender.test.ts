// One HTTP attempt, against real node:http servers on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpSender } from '../../../src-main/backend/delivery/http-sender.js';
import { sleep, startReceiver, until, type Receiver } from './harness.js';

const receivers: Receiver[] = [];
let sender: HttpSender | undefined;

afterEach(async () => {
  await sender?.close();
  sender = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(handle?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(handle);
  receivers.push(r);
  return r;
}

describe('HttpSender', () => {
  it('POSTs the body and headers as given and reports the response', async () => {
    const r = await receiver((_req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.statusCode = 201;
      res.end('created');
    });
    sender = new HttpSender({ timeoutMs: 2000, connections: 4, policy: { allowPrivate: false } });
    const result = await sender.send(`${r.url}/p?q=1`, { 'content-type': 'application/json', 'x-one': '1' }, '{"a":1}');
    expect(result.error).toBeNull();
    expect(result.response).toMatchObject({ status: 201, body: 'created', truncated: false });
    expect(result.response!.headers['set-cookie']).toBe('a=1, b=2');
    expect(r.received[0]).toMatchObject({ path: '/p?q=1', body: '{"a":1}' });
    expect(r.received[0].headers['x-one']).toBe('1');
  });

  it('start() tells its listener the result with the context given, in a later microtask, never from inside the call', async () => {
    const r = await receiver((_req, res) => res.end('ok'));
    sender = new HttpSender({ timeoutMs: 2000, connections: 4, policy: { allowPrivate: false } });
    const told: { status: number | undefined; error: string | null; ctx: string; inside: boolean }[] = [];
    let inside = false;
    const listen = (result: { response: { status: number } | null; error: string | null }, ctx: string) =>
      told.push({ status: result.response?.status, error: result.error, ctx, inside });
    inside = true;
    sender.start(`${r.url}/a`, {}, Buffer.from('a'), false, listen, 'first');
    // A request that fails at once (no such scheme) is still told later, not from inside start().
    sender.start('ftp://127.0.0.1/x', {}, Buffer.from('b'), false, listen, 'second');
    inside = false;
    expect(told).toEqual([]);
    await until(() => told.length === 2, 5000, 'both listeners told');
    expect(told).toEqual([
      { status: undefined, error: 'unsupported URL scheme "ftp:"', ctx: 'second', inside: false },
      { status: 200, error: null, ctx: 'first', inside: false },
    ]);
  });

  it('times out each attempt at its own deadline, whatever order they end in', async () => {
    const r = await receiver((req, res) => {
      if (req.path === '/fast') res.end('ok');
      // /hang never answers
    });
    sender = new HttpSender({ timeoutMs: 300, connections: 8, policy: { allowPrivate: false } });
    const t0 = Date.now();
    const first = sender.send(`${r.url}/hang`, {}, 'a').then((x) => ({ ...x, at: Date.now() - t0 }));
    await sleep(150);
    const second = sender.send(`${r.url}/hang`, {}, 'b').then((x) => ({ ...x, at: Date.now() - t0 }));
    const fast = await sender.send(`${r.url}/fast`, {}, 'c');
    expect(fast.response?.status).toBe(200);
    const [a, b] = await Promise.all([first, second]);
    expect(a.error).toMatch(/timed out after 300 ms/i);
    expect(b.error).toMatch(/timed out after 300 ms/i);
    expect(a.at).toBeGreaterThanOrEqual(290);
    expect(b.at).toBeGreaterThanOrEqual(440);
    // Each at its own deadline: not both at the first one, nor the first held until the second's.
    expect(b.at - a.at).toBeGreaterThanOrEqual(100);
  });

  it('gives an endpoint that keeps timing out the shorter deadline, even after a longer one was armed', async () => {
    const r = await receiver(() => undefined); // never answers
    sender = new HttpSender({ timeoutMs: 3000, slowTimeoutMs: 200, connections: 8, policy: { allowPrivate: false } });
    const t0 = Date.now();
    const normal = sender.send(`${r.url}/hang`, {}, 'a').then((x) => ({ ...x, at: Date.now() - t0 }));
    await sleep(50);
    const slow = await sender.send(`${r.url}/hang`, {}, 'b', true);
    const slowAt = Date.now() - t0;
    expect(slow.timedOut).toBe(true);
    expect(slow.error).toMatch(/timed out after 200 ms/i);
    expect(slowAt).toBeGreaterThanOrEqual(240);
    expect(slowAt).toBeLessThan(2000);
    const n = await normal;
    expect(n.timedOut).toBe(true);
    expect(n.error).toMatch(/timed out after 3000 ms/i);
    expect(n.at).toBeGreaterThanOrEqual(2990);
  });

  it('cuts off a response whose body trickles past the deadline', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      const tick = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(tick));
    });
    sender = new HttpSender({ timeoutMs: 300, connections: 2, policy: { allowPrivate: false } });
    const result = await sender.send(r.url, {}, 'x');
    expect(result.response).toBeNull();
    expect(result.error).toMatch(/timed out/i);
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('keeps the first bytes of a big body and marks it truncated', async () => {
    const r = await receiver((_req, res) => res.end('é'.repeat(40_000))); // 80,000 bytes
    sender = new HttpSender({ timeoutMs: 2000, connections: 2, policy: { allowPrivate: false } });
    const result = await sender.send(r.url, {}, 'x');
    expect(result.response!.truncated).toBe(true);
    expect(Buffer.byteLength(result.response!.body)).toBe(4 * 1024);
  });

  it('sends a Buffer body byte for byte, and reports the final answer after an informational one', async () => {
    const r = await receiver((_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.setHeader('x-final', 'yes');
      res.statusCode = 202;
      res.end('accepted');
    });
    sender = new HttpSender({ timeoutMs: 2000, connections: 2, policy: { allowPrivate: false } });
    const bytes = Buffer.from('{"title":"Zoë ✓ 😀"}', 'utf8');
    const result = await sender.send(r.url, { 'content-type': 'application/json' }, bytes);
    expect(result.error).toBeNull();
    expect(result.response).toMatchObject({ status: 202, body: 'accepted', truncated: false });
    expect(result.response!.headers['x-final']).toBe('yes');
    expect(result.response!.headers.link).toBeUndefined(); // the 103's headers are not the answer's
    expect(r.received[0].body).toBe('{"title":"Zoë ✓ 😀"}');
    expect(r.received[0].headers['content-length']).toBe(String(bytes.length));
  });

  it('reports a refused connection as an error, never a throw', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    receivers.splice(receivers.indexOf(r), 1);
    sender = new HttpSender({ timeoutMs: 2000, connections: 2, policy: { allowPrivate: false } });
    const result = await sender.send(url, {}, 'x');
    expect(result.response).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
    const bad = await sender.send('ftp://127.0.0.1/x', {}, 'x');
    expect(bad.error).toMatch(/unsupported URL scheme/);
  });

  it('does not follow redirects', async () => {
    const r = await receiver((req, res) => {
      if (req.path === '/from') {
        res.writeHead(307, { location: '/to' });
        res.end();
      } else res.end('followed');
    });
    sender = new HttpSender({ timeoutMs: 2000, connections: 2, policy: { allowPrivate: false } });
    const result = await sender.send(`${r.url}/from`, {}, 'x');
    expect(result.response?.status).toBe(307);
    expect(r.received.map((x) => x.path)).toEqual(['/from']);
  });

  it('abortAll ends attempts in flight at once', async () => {
    const r = await receiver(() => undefined);
    sender = new HttpSender({ timeoutMs: 10_000, connections: 2, policy: { allowPrivate: false } });
    const pending = sender.send(r.url, {}, 'x');
    await sleep(100);
    const t0 = Date.now();
    sender.abortAll();
    const result = await pending;
    expect(Date.now() - t0).toBeLessThan(500);
    expect(result.error).toMatch(/stopped/);
  });
});
