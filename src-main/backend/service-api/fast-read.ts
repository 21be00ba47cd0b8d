// The hot read, GET /documents/{id}, answered without Express when it succeeds. Only
// the success path lives here: anything else (no or bad key, unknown or foreign id,
// odd URL, the rate limit on) falls through to the Express app and its one error
// path, so every error still has one shape and one writer. Same headers as Express
// gives the route (its x-powered-by and etag are off).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Domain } from '../domain/domain.js';

const PREFIX = '/documents/';
const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function fastDocumentRead(domain: Domain, enabled: boolean): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (!enabled || req.method !== 'GET') return false;
    const url = req.url!;
    if (!url.startsWith(PREFIX)) return false;
    const id = url.slice(PREFIX.length);
    if (!PLAIN_ID.test(id)) return false;
    const key = req.headers['x-api-key'];
    const actor = domain.authenticate(typeof key === 'string' ? key : undefined);
    if (!actor) return false;
    const view = domain.peekDocumentView(actor.company_id, id);
    if (!view) return false;
    const body = JSON.stringify(view);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return true;
  };
}
