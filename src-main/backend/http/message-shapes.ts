// Keeps node:http's per-request objects cheap whatever the garbage collector does at
// start-up. V8 decides how many fields an object built by a constructor holds inline
// (in-object slack tracking) when the 7th object of that constructor is built, from the
// shapes the earlier ones took. If a full garbage collection runs between the 6th
// response and the 7th (as the first one after start-up often does, while the first
// requests arrive), the shapes of the dead earlier responses are gone by then: every
// later ServerResponse is built with no inline field, overflows into a hash table
// (V8's dictionary mode) and costs about twice the memory and CPU for the rest of the
// process's life. Measured on GET /documents/{id}: 20-26 µs a request instead of 13,
// in about half of the starts. Building a few requests and responses here, all kept
// alive until the last is built and taken through a response as the hot read does,
// settles their layout from live shapes before the first real request can arrive.
// Each constructor has its layout of its own: a listener whose requests and responses are
// built by subclasses (http/express-messages.ts) settles those.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { MessageClasses } from './express-messages.js';

// More than V8's count of objects before it decides (7), with room for a change.
const WARM = 16;
const settled = new WeakSet<object>();

/** Settles the layout of a listener's requests and responses (node:http's own by default); call before it listens. Idempotent. */
export function settleHttpMessageShapes(classes: MessageClasses = { IncomingMessage, ServerResponse }): void {
  if (settled.has(classes.IncomingMessage)) return;
  settled.add(classes.IncomingMessage);
  const alive: unknown[] = [];
  for (let i = 0; i < WARM; i++) {
    const req = new classes.IncomingMessage(null as never);
    req.method = 'GET';
    req.url = '/';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    req.complete = true;
    const res = new classes.ServerResponse(req);
    res.shouldKeepAlive = true;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': 2 });
    res.end('{}');
    alive.push(req, res);
  }
  alive.length = 0;
}
