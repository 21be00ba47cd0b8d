// Small webhook endpoints for the conformance scorecard's tests, on real loopback
// listeners: one written the way an integration should be (verifies with the
// `standardwebhooks` library, dedupes on webhook-id), one that accepts everything, and
// one that redirects every request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Endpoint {
  url: string;
  /** Requests received, in arrival order. */
  received: { id: string | undefined; status: number }[];
  close(): Promise<void>;
}

type Handler = (headers: Record<string, string>, body: string) => { status: number; headers?: Record<string, string>; body?: string };

async function serve(handler: Handler): Promise<Endpoint> {
  const received: Endpoint['received'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const answer = handler(headers, Buffer.concat(chunks).toString('utf8'));
      received.push({ id: headers['webhook-id'], status: answer.status });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/countersign`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Verifies with `standardwebhooks` (401 when it does not verify) and answers a repeated webhook-id with 200 without redoing the work. */
export function verifyingEndpoint(secret: string): Promise<Endpoint> {
  const wh = new Webhook(secret);
  const done = new Set<string>();
  return serve((headers, body) => {
    try {
      wh.verify(body, headers);
    } catch (err) {
      return { status: 401, body: JSON.stringify({ error: (err as Error).message }) };
    }
    const id = headers['webhook-id'];
    if (done.has(id)) return { status: 200, body: '{"duplicate":true}' };
    done.add(id);
    return { status: 204 };
  });
}

/** 200 to anything. */
export const acceptEverything = (): Promise<Endpoint> => serve(() => ({ status: 200, body: '{"ok":true}' }));

/** 307 to another path, always. */
export const redirectEverything = (): Promise<Endpoint> => serve(() => ({ status: 307, headers: { location: '/webhooks/countersign/' } }));
