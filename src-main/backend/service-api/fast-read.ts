// The hot read, GET /documents/{id}, answered without Express when it succeeds. Only
// the success path lives here: anything else (a Host that is not the listener's, no or
// bad key, unknown or foreign id, odd URL, a key over its rate limit) falls through to the
// Express app and its one error path, so every error still has one shape and one
// writer. The Host check (DNS rebinding, http/host-check.ts) is the same policy as the
// app's, one set lookup. Same headers as Express gives the route (its x-powered-by and
// etag are off).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BackendConfig } from '../config.js';
import type { Domain } from '../domain/domain.js';
import { hostPolicy } from '../http/host-check.js';
import type { KeyRateLimit } from './rate-limit.js';

const PREFIX = '/documents/';
const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function fastDocumentRead(
  domain: Domain,
  config: Pick<BackendConfig, 'allowedHosts'>,
  limit: KeyRateLimit | undefined,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const hosts = hostPolicy(config.allowedHosts);
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url!;
    if (!url.startsWith(PREFIX)) return false;
    const id = url.slice(PREFIX.length);
    if (!PLAIN_ID.test(id)) return false;
    if (!hosts.allows(req.headers.host, req.socket.localPort)) return false;
    const key = req.headers['x-api-key'];
    const actor = domain.authenticate(typeof key === 'string' ? key : undefined);
    if (!actor) return false;
    const body = domain.peekDocumentJson(actor.company_id, id);
    if (!body) return false;
    // Last, so that only a request answered here takes a token (a refused one takes none
    // here and is refused by the Express app, which takes its own).
    if (limit && limit.take(actor.key_id) !== 0) return false;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
    return true;
  };
}
