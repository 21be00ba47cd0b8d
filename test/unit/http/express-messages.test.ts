// A listener whose requests and responses are built by http/express-messages.ts's classes
// gives Express objects that already have the app's prototypes, so Express's
// `Object.setPrototypeOf` on each of them changes nothing (docs/benchmark.md, figure 3:
// a swapped prototype's map dies with the requests at a full collection, and the router's
// code deoptimized on the next burst's requests). Real Express 5 apps on loopback (a router
// with a JSON body and a path parameter, as the service has); the prototype swaps are
// counted by wrapping Object.setPrototypeOf while the requests run. The plain listener is
// the control: there Express swaps every request's and response's prototype.
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonBody } from '../../../src-main/backend/http/body.js';
import { expressMessageClasses } from '../../../src-main/backend/http/express-messages.js';
import { createReceiverServer } from '../../../src-main/backend/receiver/server.js';
import { DEFAULT_LIMITS } from '../../../src-main/backend/receiver/types.js';

let close: (() => void) | undefined;
afterEach(() => close?.());

/** An app as the service builds one: a router, a JSON body, a path parameter; it answers with what Express gave it. */
function app(): express.Express {
  const api = Router();
  api.use(jsonBody());
  api.post('/things/:id', (req, res) => {
    res.status(201).json({ id: req.params.id, body: req.body, sameApp: req.app === a, type: req.get('content-type') });
  });
  const a = express();
  a.use(api);
  return a;
}

/** Three POSTs through the listener; how many times a request's or response's prototype was actually changed meanwhile. */
async function swapsWhile(listen: (app: express.Express) => Server): Promise<{ swaps: number; answers: unknown[] }> {
  const server = listen(app());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => server.close();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const real = Object.setPrototypeOf;
  let swaps = 0;
  Object.setPrototypeOf = (o: object, proto: object | null) => {
    if ((o instanceof IncomingMessage || o instanceof ServerResponse) && Object.getPrototypeOf(o) !== proto) swaps++;
    return real(o, proto);
  };
  try {
    const answers = [];
    for (const id of ['a', 'b', 'c']) {
      const res = await fetch(`${base}/things/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
      answers.push({ status: res.status, body: await res.json() });
    }
    return { swaps, answers };
  } finally {
    Object.setPrototypeOf = real;
  }
}

const expected = (id: string) => ({ status: 201, body: { id, body: { n: 1 }, sameApp: true, type: 'application/json' } });

describe('expressMessageClasses', () => {
  it.each([
    ['the API listener', (a: express.Express) => createServer(expressMessageClasses(a), a)],
    ['the receiver listener', (a: express.Express) => createReceiverServer({ app: a, limits: DEFAULT_LIMITS })],
  ])(
    'builds requests and responses whose prototypes Express does not have to change, and Express works as before (%s)',
    async (_, listen) => {
      const { swaps, answers } = await swapsWhile(listen);
      expect(answers).toEqual(['a', 'b', 'c'].map(expected));
      expect(swaps).toBe(0);
    },
  );

  it('is what keeps Express from swapping: a plain listener has both objects of every request swapped', async () => {
    const { swaps, answers } = await swapsWhile((a) => createServer(a));
    expect(answers).toEqual(['a', 'b', 'c'].map(expected));
    expect(swaps).toBe(6);
  });

  it('gives an app the same classes when asked again, and keeps what the app had on its prototypes', () => {
    const a = express();
    const classes = expressMessageClasses(a);
    expect(expressMessageClasses(a)).toBe(classes);
    expect(a.request).toBe(classes.IncomingMessage.prototype);
    expect(a.response).toBe(classes.ServerResponse.prototype);
    expect((a.request as express.Request).app).toBe(a);
    expect(typeof (a.response as express.Response).json).toBe('function');
  });
});
