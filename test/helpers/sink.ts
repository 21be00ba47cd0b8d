// A plain node:http server on loopback that records what it receives and answers as
// told: the subscriber end of delivery tests.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Sink {
  url: string;
  received: Received[];
  /** Decides each answer; default 200 "ok". */
  respond: (req: Received, res: ServerResponse, n: number) => void;
  /** Resolves when `count` requests have arrived (rejects after `ms`). */
  waitFor: (count: number, ms?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const sink: Sink = {
    url: '',
    received,
    respond: (_req, res) => res.end('ok'),
    waitFor: (count, ms = 10000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(() => reject(new Error(`sink: ${received.length}/${count} requests after ${ms} ms`)), ms);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(received)) });
      }),
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      sink.respond(r, res, received.length);
      for (const w of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}
