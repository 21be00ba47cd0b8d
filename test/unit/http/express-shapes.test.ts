// Requests and responses that Express handles share V8's hidden classes (maps) when
// http/express-shapes.ts gave them Express's properties before the prototype swap
// (docs/benchmark.md, "Figure 1 and Express"). Without it, every property Express adds
// after the swap makes a map of that one object (checked: this test fails with the
// preset call removed), and node:http's code sees a new map with every such request.
// Two requests are held together in a route of a real Express 5 app on loopback (a
// router mounted on the app, a JSON body, a path parameter, as the service has), and
// their maps are compared there with V8's %HaveSameMap.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import express, { Router } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonBody } from '../../../src-main/backend/http/body.js';
import { expressMessageClasses } from '../../../src-main/backend/http/express-messages.js';
import { presetExpressFields } from '../../../src-main/backend/http/express-shapes.js';
import { createReceiverServer } from '../../../src-main/backend/receiver/server.js';
import { DEFAULT_LIMITS } from '../../../src-main/backend/receiver/types.js';

setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

type Pair = { sameRequestMap: boolean; sameResponseMap: boolean; seen: unknown[] };
let close: (() => void) | undefined;
afterEach(() => close?.());

/** Two concurrent POSTs, held together in the route and compared there; the pair before them only warms up. */
async function twoHeldTogether(listen: (app: express.Express) => Server): Promise<{ pair: Pair; answers: unknown[] }> {
  const pairs: Pair[] = [];
  let waiting: { req: express.Request; res: express.Response }[] = [];
  const api = Router();
  api.use(jsonBody());
  api.post('/things/:id', (req, res) => {
    waiting.push({ req, res });
    if (waiting.length < 2) return;
    const [a, b] = waiting;
    waiting = [];
    pairs.push({
      sameRequestMap: haveSameMap(a.req, b.req),
      sameResponseMap: haveSameMap(a.res, b.res),
      seen: [a, b].map((h) => [h.req.params, h.req.body]),
    });
    for (const h of [a, b]) h.res.status(201).json({ id: h.req.params.id, body: h.req.body });
  });
  const app = express();
  app.use(api);
  const server = listen(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => server.close();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (id: string) => {
    const res = await fetch(`${base}/things/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    return { status: res.status, body: await res.json() };
  };
  await Promise.all([post('w1'), post('w2')]);
  const answers = await Promise.all([post('a'), post('b')]);
  return { pair: pairs[1], answers };
}

/** The API listener's way (api-server.ts): the app's message classes, the preset, then the app. */
const apiListener = (app: express.Express) =>
  createServer(expressMessageClasses(app), (req: IncomingMessage, res: ServerResponse) => {
    presetExpressFields(req, res);
    app(req, res);
  });
/** The receiver's own listener (receiver/server.ts), around the same app. */
const receiverListener = (app: express.Express) => createReceiverServer({ app, limits: DEFAULT_LIMITS });

describe('presetExpressFields', () => {
  it.each([
    ['the API listener', apiListener],
    ['the receiver listener', receiverListener],
  ])('gives two requests in one route the same maps, request and response, and changes nothing they read (%s)', async (_, listen) => {
    const { pair, answers } = await twoHeldTogether(listen);
    expect(answers).toEqual([
      { status: 201, body: { id: 'a', body: { n: 1 } } },
      { status: 201, body: { id: 'b', body: { n: 1 } } },
    ]);
    expect(pair.seen).toEqual([
      [{ id: 'a' }, { n: 1 }],
      [{ id: 'b' }, { n: 1 }],
    ]);
    expect(pair.sameRequestMap).toBe(true);
    expect(pair.sameResponseMap).toBe(true);
  });
});
