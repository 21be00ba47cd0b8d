// The "redirect" fault: the attempt is sent to a URL of ours that answers with a
// redirect to the subscription's URL. Redirects are never followed, so the attempt
// fails with that 3xx and is retried, as a subscriber whose URL redirects would see.
// Guards against an open redirect: each URL is a random single-use token for one
// target, forgotten after use or a minute, on the loopback API listener only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { systemClock } from '../clock.js';

export const REDIRECT_PATH = '/_countersign/redirect/';
const TTL_MS = 60_000;

export class Redirector {
  private readonly targets = new Map<string, { url: string; status: number }>();

  constructor(private readonly base: () => string) {}

  /** A single-use URL answering `status` with `Location: target`. */
  urlFor(target: string, status: number): string {
    const token = randomBytes(18).toString('base64url');
    this.targets.set(token, { url: target, status });
    systemClock.setTimeout(() => this.targets.delete(token), TTL_MS).unref();
    return `${this.base()}${REDIRECT_PATH}${token}`;
  }

  /** Answers a request for one of our redirect URLs; false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (!req.url?.startsWith(REDIRECT_PATH)) return false;
    const token = req.url.slice(REDIRECT_PATH.length);
    const target = this.targets.get(token);
    this.targets.delete(token);
    req.resume();
    if (!target) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'not_found', message: 'No such redirect (each one is used once).' } }));
      return true;
    }
    res.writeHead(target.status, { location: target.url, 'content-type': 'text/plain' });
    res.end(`Redirecting to ${target.url} (a deliberate fault: redirects are never followed)`);
    return true;
  }
}
