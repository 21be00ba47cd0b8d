// The receiver's own limits over raw sockets on loopback (issue 9, finding 1): open
// requests per inbox, the memory budget for bodies being received (per inbox and for
// all), senders that trickle their bytes, and oversize headers. Every refusal is in the
// one error shape, and whatever a refused or cut request held is given back.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { send, startReceiver, type ReceiverHarness } from './harness.js';
import { waitUntil } from '../../helpers/wait.js';

const KIB = 1024;
let h: ReceiverHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

interface Raw {
  socket: Socket;
  text: () => string;
  status: () => number | undefined;
  closed: Promise<void>;
}

/** A connection that sends exactly what it is told, when it is told. */
function raw(base: string, head: string): Raw {
  const u = new URL(base);
  const socket = connect(Number(u.port), u.hostname);
  let text = '';
  socket.on('data', (d) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  socket.write(head);
  const status = () => {
    const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
    return m ? Number(m[1]) : undefined;
  };
  return { socket, text: () => text, status, closed };
}

const chunkedHead = (path: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`;
const chunk = (n: number) => `${n.toString(16)}\r\n${'a'.repeat(n)}\r\n`;

function errorOf(r: Raw): { code: string; message: string } {
  const body = r.text().slice(r.text().indexOf('\r\n\r\n') + 4);
  const parsed = JSON.parse(body) as { error: { code: string; message: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  return parsed.error;
}

describe('receiver limits', () => {
  it('an inbox has at most maxOpenPerInbox requests open; the next is 503 with Retry-After, other inboxes unaffected', async () => {
    h = await startReceiver({ limits: { maxOpenPerInbox: 2 } });
    const hung = (await h.receiver.inboxes.create({ response: { mode: 'hang' } })).id;
    const other = (await h.receiver.inboxes.create({})).id;
    const aborts = [new AbortController(), new AbortController()];
    const pending = aborts.map((a) =>
      request(`${h!.base}/in/${hung}`, { method: 'POST', body: '{}', signal: a.signal }).catch(() => 'gone'),
    );
    await waitUntil('two hung requests', async () => h!.receiver.admission.open(hung) === 2);

    const refused = await send(h, `/in/${hung}`, '{}');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(JSON.parse(refused.text)).toEqual({ error: { code: 'inbox_busy', message: expect.any(String) } });
    expect(refused.headers.get('x-countersign-capture')).toBeNull();
    expect(h.receiver.captures.count(hung)).toBe(2);
    expect((await send(h, `/in/${other}`, '{}')).status).toBe(200);

    aborts[0].abort();
    await waitUntil('a slot to free', async () => h!.receiver.admission.open(hung) === 1);
    const third = new AbortController();
    void request(`${h.base}/in/${hung}`, { method: 'POST', body: '{}', signal: third.signal }).catch(() => 'gone');
    await waitUntil('the third request to be let in', async () => h!.receiver.captures.count(hung) === 3);
    third.abort();
    aborts[1].abort();
    await Promise.all(pending);
    await waitUntil('every slot to free', async () => h!.receiver.admission.open(hung) === 0);
  });

  it('bodies being received count against the budget: past an inbox share, or the whole, 503 (and what they held is given back)', async () => {
    h = await startReceiver({ limits: { bodyLimit: 64 * KIB, memoryBudget: 128 * KIB } });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(async (name) => (await h!.receiver.inboxes.create({ name })).id));
    const first = raw(h.base, chunkedHead(`/in/${a}`) + chunk(60 * KIB));
    await waitUntil('60 KiB in flight', async () => h!.receiver.admission.inFlight(a) >= 60 * KIB);
    // Same inbox, declared length: refused before its body is read.
    const sameInbox = raw(h.base, `POST /in/${a} HTTP/1.1\r\nHost: x\r\nContent-Length: ${10 * KIB}\r\n\r\n`);
    await waitUntil('the refusal', async () => sameInbox.status());
    expect(sameInbox.status()).toBe(503);
    expect(errorOf(sameInbox).code).toBe('inbox_busy');
    sameInbox.socket.destroy();

    const second = raw(h.base, chunkedHead(`/in/${b}`) + chunk(60 * KIB));
    await waitUntil('120 KiB in flight', async () => h!.receiver.admission.inFlight() >= 120 * KIB);
    // Another inbox, no declared length: admitted, then refused once its bytes pass the whole budget.
    const third = raw(h.base, chunkedHead(`/in/${c}`) + chunk(16 * KIB));
    await third.closed;
    expect(third.status()).toBe(503);
    expect(errorOf(third).code).toBe('receiver_busy');
    expect(third.text().toLowerCase()).toContain('connection: close');

    for (const r of [first, second]) r.socket.write('0\r\n\r\n');
    await waitUntil('both answered', async () => first.status() === 200 && second.status() === 200);
    for (const r of [first, second]) r.socket.destroy();
    await waitUntil('nothing held', async () => h!.receiver.admission.inFlight() === 0 && h!.receiver.admission.open(a) === 0);
    expect(h.receiver.captures.count(c)).toBe(0);
  });

  it('a sender that trickles its body is cut after the request timeout (408), holding nothing after', async () => {
    h = await startReceiver({ limits: { requestTimeoutMs: 1000 } });
    const id = (await h.receiver.inboxes.create({})).id;
    const began = Date.now();
    const slow = raw(h.base, `POST /in/${id} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n`);
    const trickle = setInterval(() => slow.socket.writable && slow.socket.write('a'), 100);
    await slow.closed;
    clearInterval(trickle);
    expect(Date.now() - began).toBeLessThan(4000);
    expect(slow.status()).toBe(408);
    expect(errorOf(slow).code).toBe('request_timeout');
    await waitUntil('the slot to free', async () => h!.receiver.admission.open(id) === 0);
    expect(h.receiver.admission.inFlight()).toBe(0);
    expect(h.receiver.captures.count(id)).toBe(0);
    // Headers that never end are cut too.
    const noHeaders = raw(h.base, `POST /in/${id} HTTP/1.1\r\nHost: x\r\n`);
    await noHeaders.closed;
    expect(noHeaders.status()).toBe(408);
  });

  it('an answer held back on purpose (delay) is not cut by the request timeout: the request had arrived', async () => {
    h = await startReceiver({ limits: { requestTimeoutMs: 1000 } });
    const id = (await h.receiver.inboxes.create({ response: { mode: 'status', status: 202, delay_ms: 2500 } })).id;
    const r = await send(h, `/in/${id}`, '{}');
    expect(r.status).toBe(202);
    expect(h.receiver.admission.open(id)).toBe(0);
  });

  it('headers over 16 KiB are answered 431 in the one error shape; the receiver carries on', async () => {
    h = await startReceiver();
    const id = (await h.receiver.inboxes.create({})).id;
    const big = raw(h.base, `POST /in/${id} HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * KIB)}\r\nContent-Length: 0\r\n\r\n`);
    await big.closed;
    expect(big.status()).toBe(431);
    expect(errorOf(big).code).toBe('headers_too_large');
    const garbage = raw(h.base, 'NOT HTTP AT ALL\r\n\r\n');
    await garbage.closed;
    expect(garbage.status()).toBe(400);
    expect(errorOf(garbage).code).toBe('invalid_request');
    expect((await send(h, `/in/${id}`, '{}')).status).toBe(200);
  });

  it('a long webhook-id is remembered by a digest: duplicates are still told apart', async () => {
    h = await startReceiver();
    const id = (await h.receiver.inboxes.create({})).id;
    const long = `msg_${'x'.repeat(8000)}`;
    expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': long })).capture!.duplicate).toBe(false);
    expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': long })).capture!.duplicate).toBe(true);
    expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': `${long}y` })).capture!.duplicate).toBe(false);
  });
});
