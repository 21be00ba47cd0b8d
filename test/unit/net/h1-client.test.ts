// The delivery client (net/h1-*.ts) through HttpSender, against raw TCP servers on
// 127.0.0.1 that answer byte for byte what a test scripts (so the edge cases a real
// server would never produce can be made: a keep-alive race, a close mid-body, a
// response that breaks HTTP/1.1), and a real TLS server with a throwaway certificate.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpSender } from '../../../src-main/backend/delivery/http-sender.js';

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

interface Raw {
  url: string;
  /** Every request head received, with the number of the connection it came on (1-based). */
  requests: { conn: number; head: string; body: string }[];
  connections: number;
  close(): Promise<void>;
}

const servers: Server[] = [];
let sender: HttpSender | undefined;

afterEach(async () => {
  await sender?.close();
  sender = undefined;
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/**
 * A server that reads each request (head + content-length body) and calls
 * `answer(socket, conn, nth request on that connection)`.
 */
async function raw(answer: (socket: Socket, conn: number, nth: number) => void): Promise<Raw> {
  const r: Raw = { url: '', requests: [], connections: 0, close: async () => undefined };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    const conn = ++r.connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    let nth = 0;
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.toString('latin1', 0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        r.requests.push({ conn, head, body: pending.toString('utf8', end + 4, end + 4 + length) });
        pending = pending.subarray(end + 4 + length);
        answer(socket, conn, ++nth);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.close = async () => {
    for (const s of sockets) s.destroy();
  };
  return r;
}

const newSender = (connections = 2, extra: Partial<ConstructorParameters<typeof HttpSender>[0]> = {}) =>
  (sender = new HttpSender({ timeoutMs: 2000, connections, policy: { allowPrivate: false }, ...extra }));

describe('the delivery client', () => {
  it('writes one request with Host (and its port), keep-alive and content-length, then reuses the connection', async () => {
    const r = await raw((s) => s.write(OK));
    const s = newSender();
    const port = new URL(r.url).port;
    const first = await s.send(`${r.url}/hook?x=1`, { 'content-type': 'application/json', 'webhook-id': 'msg_1' }, '{"é":1}');
    expect(first).toMatchObject({ error: null, response: { status: 200, body: 'ok', truncated: false } });
    expect((await s.send(`${r.url}/hook?x=1`, {}, Buffer.from('two'))).response?.status).toBe(200);
    expect(r.connections).toBe(1);
    const [a, b] = r.requests;
    expect(a.head).toBe(
      `POST /hook?x=1 HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\nwebhook-id: msg_1\r\ncontent-length: 8`,
    );
    expect(a.body).toBe('{"é":1}');
    expect(b.body).toBe('two');
  });

  it('sends a request again, once, on a fresh connection when a reused one was closed by the server (keep-alive race)', async () => {
    const r = await raw((socket, conn, nth) => (conn === 1 && nth === 2 ? socket.destroy() : socket.write(OK)));
    const s = newSender();
    expect((await s.send(r.url, {}, 'a')).response?.status).toBe(200);
    const second = await s.send(r.url, {}, 'b');
    expect(second).toMatchObject({ error: null, response: { status: 200 } });
    expect(r.requests.map((q) => [q.conn, q.body])).toEqual([
      [1, 'a'],
      [1, 'b'],
      [2, 'b'],
    ]);
  });

  it('does not send again when a fresh connection closes without answering, nor a second time after a race', async () => {
    const fresh = await raw((socket) => socket.destroy());
    const s = newSender();
    const once = await s.send(fresh.url, {}, 'x');
    expect(once.response).toBeNull();
    expect(once.error).toMatch(/closed the connection without answering|ECONNRESET/);
    expect(fresh.connections).toBe(1);

    const racing = await raw((socket, conn, nth) => (conn === 1 && nth === 1 ? socket.write(OK) : socket.destroy()));
    expect((await s.send(racing.url, {}, 'a')).response?.status).toBe(200);
    const twice = await s.send(racing.url, {}, 'b');
    expect(twice.response).toBeNull();
    expect(racing.connections).toBe(2);
    expect(racing.requests).toHaveLength(3);
  });

  it('reports a connection closed mid-body as an error and does not send again', async () => {
    const r = await raw((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    const result = await newSender().send(r.url, {}, 'x');
    expect(result.response).toBeNull();
    expect(result.error).toMatch(/before its response was complete/);
    expect(r.requests).toHaveLength(1);
  });

  it('ends the attempt with a clear error on a response that breaks HTTP/1.1, and drops the connection', async () => {
    const r = await raw((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nok'));
    const s = newSender();
    const result = await s.send(r.url, {}, 'x');
    expect(result.error).toMatch(/invalid HTTP response: conflicting content-length/);
    expect((await s.send(r.url, {}, 'y')).error).toMatch(/invalid HTTP response/);
    expect(r.connections).toBe(2);
  });

  it('keeps an answer followed by stray bytes, and does not reuse that connection', async () => {
    const r = await raw((socket) => socket.write(`${OK}HTTP/1.1 200 OK\r\n`));
    const s = newSender();
    expect((await s.send(r.url, {}, 'a')).response).toMatchObject({ status: 200, body: 'ok' });
    expect((await s.send(r.url, {}, 'b')).response).toMatchObject({ status: 200, body: 'ok' });
    expect(r.connections).toBe(2);
  });

  it('honours connection: close from a server that leaves the socket open', async () => {
    const r = await raw((socket) => socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'));
    const s = newSender();
    expect((await s.send(r.url, {}, 'a')).response?.body).toBe('ok');
    expect((await s.send(r.url, {}, 'b')).response?.body).toBe('ok');
    expect(r.connections).toBe(2);
  });

  it('reads chunked answers and bodies to the close, and reuses the connection after a chunked one', async () => {
    const r = await raw((socket, conn) =>
      conn === 1
        ? socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n')
        : socket.end('HTTP/1.1 201 Created\r\n\r\nto the end'),
    );
    const s = newSender(1);
    expect((await s.send(r.url, {}, 'a')).response).toMatchObject({ status: 200, body: 'abcde' });
    expect((await s.send(r.url, {}, 'b')).response).toMatchObject({ status: 200, body: 'abcde' });
    expect(r.connections).toBe(1);
  });

  it('drops a connection the server closes while it is idle, and one the server says it will time out', async () => {
    const r = await raw((socket, conn) => {
      if (conn === 1)
        socket.end(OK); // answers, then closes the idle connection
      else socket.write('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 2\r\n\r\nok');
    });
    const s = newSender(1);
    expect((await s.send(r.url, {}, 'a')).response?.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the close arrives while idle
    expect((await s.send(r.url, {}, 'b')).response?.status).toBe(200);
    // timeout=1: the client lets go 1 s early, i.e. at once: the next request takes a new connection.
    expect((await s.send(r.url, {}, 'c')).response?.status).toBe(200);
    expect(r.requests.map((q) => q.conn)).toEqual([1, 2, 3]);
  });

  it('keeps at most `connections` open per origin and queues the rest, reusing idle ones', async () => {
    const r = await raw((socket) => setTimeout(() => socket.write(OK), 30));
    const s = newSender(2);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => s.send(r.url, {}, String(i))));
    expect(results.every((x) => x.response?.status === 200)).toBe(true);
    expect(r.connections).toBe(2);
    expect(r.requests).toHaveLength(8);
  });

  it('refuses a header that could break the request, before anything is sent', async () => {
    const r = await raw((socket) => socket.write(OK));
    const s = newSender();
    const bad: Record<string, string>[] = [
      { 'x-a': 'one\r\nx-injected: 1' },
      { 'x-a': 'one\ntwo' },
      { 'x-a\r\nx-b': '1' },
      { 'x-a': 'nul\0' },
      { host: 'evil' },
    ];
    for (const headers of bad) {
      const result = await s.send(r.url, headers, 'x');
      expect(result.response).toBeNull();
      expect(result.error).toMatch(/header/);
    }
    expect(r.connections).toBe(0);
  });

  it('keeps the first bytes of a chunked answer over the limit and drops the connection', async () => {
    const r = await raw((socket) =>
      socket.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2000\r\n${'z'.repeat(0x2000)}\r\n0\r\n\r\n`),
    );
    const s = newSender(1, { maxResponseBytes: 100 });
    const result = await s.send(r.url, {}, 'x');
    expect(result.response).toMatchObject({ status: 200, body: 'z'.repeat(100), truncated: true });
    expect((await s.send(r.url, {}, 'y')).response?.truncated).toBe(true);
    expect(r.connections).toBe(2);
  });
});

describe('the delivery client over TLS', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('checks the certificate against the trusted CAs and sends the name (SNI)', async (ctx) => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'pipe' });
    } catch {
      return ctx.skip('openssl is not installed: it makes the throwaway certificate');
    }
    dir = await mkdtemp(join(tmpdir(), 'countersign-h1-tls-'));
    const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'pipe' }); // prettier-ignore
    const [key, cert] = [await readFile(keyFile), await readFile(certFile)];
    const names: (string | false | null)[] = [];
    const resumed: boolean[] = [];
    const server = createHttpsServer({ key, cert }, (req, res) => {
      const socket = req.socket as import('node:tls').TLSSocket;
      names.push(socket.servername);
      resumed.push(socket.isSessionReused());
      req.resume();
      // The first answer closes its connection: the second request needs a new one, which resumes the session.
      if (names.length === 1) res.setHeader('connection', 'close');
      req.on('end', () => res.end(`secure ${req.headers.host}`));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://localhost:${(server.address() as AddressInfo).port}/hook`;

    // Not trusted: the attempt fails on the certificate, nothing is sent.
    const untrusted = await newSender(2).send(url, {}, 'x');
    expect(untrusted.response).toBeNull();
    expect(untrusted.error).toMatch(/self[- ]signed|certificate/i);
    await sender!.close();

    const trusted = newSender(2, { tls: { ca: cert } });
    const ok = await trusted.send(url, {}, 'x');
    expect(ok).toMatchObject({ error: null, response: { status: 200, body: `secure localhost:${new URL(url).port}` } });
    expect((await trusted.send(url, {}, 'y')).response?.status).toBe(200);
    expect(names).toEqual(['localhost', 'localhost']);
    expect(resumed).toEqual([false, true]);
  });
});
