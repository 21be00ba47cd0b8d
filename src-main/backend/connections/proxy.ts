// The console's calls to a remote service, passed through the backend (the page never
// holds the remote's key, and no CORS is needed). Only what works on a real deployment
// is passed: /v2/webhooks… and /documents/{id}… (docs/connections.md). Guards against
// the proxy being a way to reach anything else with the key: the path is checked
// segment by segment (no "..", no encoded slashes, no test helpers), only four methods
// pass, and the remote's answer goes back with its status and JSON body but none of its
// other headers.
import type { Request, Response } from 'express';
import { ApiError } from '../errors.js';
import { callRemote, isJsonAnswer, type RemoteAnswer } from './remote-client.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE']);
const SEGMENT = /^[A-Za-z0-9_.~-]+$/;

/** Whether a path (without its query) is one a remote connection may be asked. */
export function remotePathAllowed(path: string): boolean {
  const parts = path.split('/');
  if (parts[0] !== '' || parts.slice(1).some((p) => !SEGMENT.test(p) || p === '.' || p === '..')) return false;
  const [, a, b, c, d, e, f] = parts;
  if (a === 'v2' && b === 'webhooks') {
    if (c === undefined) return true;
    if (d === undefined) return true;
    if (d === 'test') return e === undefined;
    if (d === 'deliveries') return e === undefined || f === undefined || (f === 'redeliver' && parts.length === 7);
    return false;
  }
  if (a === 'documents' && b !== undefined) return c === undefined || (c === 'remind' && d === undefined);
  return false;
}

const excerpt = (buf: Buffer) => {
  const text = buf.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** Writes the remote's answer to the page: its status and JSON body as they came. */
export function passAnswer(res: Response, answer: RemoteAnswer, name: string): void {
  if (answer.body.length === 0) return void res.status(answer.status).end();
  if (!isJsonAnswer(answer)) {
    throw new ApiError(
      'remote_invalid_response',
      `${name} answered ${answer.status} with a body that is not JSON (${answer.contentType ?? 'no content type'}): ${excerpt(answer.body)}`,
    );
  }
  res.status(answer.status).type('application/json').send(answer.body);
}

export interface ProxyTarget {
  id: string;
  name: string;
  base_url: string;
}

/** Sends the request (path and query as the page gave them, body re-serialized) to the remote. */
export async function forward(req: Request, target: ProxyTarget, key: string, timeoutMs: number): Promise<RemoteAnswer> {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  if (!METHODS.has(req.method)) throw new ApiError('invalid_request', `${req.method} is not passed to a remote connection.`);
  if (!remotePathAllowed(path))
    throw new ApiError(
      'not_found',
      `No route ${req.method} ${path} on a remote connection: only /v2/webhooks… and /documents/{id}… work on a real deployment.`,
    );
  const hasBody = req.method === 'POST' || req.method === 'PUT';
  return callRemote({
    name: target.name,
    baseUrl: target.base_url,
    key,
    method: req.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: req.url,
    body: hasBody ? JSON.stringify(req.body ?? {}) : undefined,
    timeoutMs,
  });
}
