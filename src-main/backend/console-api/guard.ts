// The console API's gate. What it guards against:
// - any local program or web page calling the console API without this run's token
//   (the token is random per run and reaches the page only through the URL fragment
//   of console_url, which browsers never send to a server);
// - DNS rebinding: a hostile site whose name resolves to 127.0.0.1 reaches the
//   listener with its own name in `Host`, so only the listener's own names pass
//   (http/host-check.ts, mounted before this guard);
// - cross-site requests (CSRF and cross-origin reads of the stream): a foreign
//   `Origin`, or a browser's `Sec-Fetch-Site: cross-site`, is refused outright.
// No CORS header is ever written, so no other origin can read an answer.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import type { HostPolicy } from '../http/host-check.js';

export interface GuardOptions {
  token: string;
  /** The listener's names (http/host-check.ts): pages served under them are this console's own origins. */
  hosts: HostPolicy;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function presentedToken(req: Request): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const header = req.headers['x-console-token'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/** Constant-time comparison (over digests, so lengths never leak either). */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

/**
 * Origin check, then token check. Order matters for the answers: a cross-site caller
 * learns only "forbidden", never whether its token guess was right.
 */
export function consoleGuard({ token, hosts }: GuardOptions): RequestHandler {
  return (req, _res, next) => {
    const origin = req.headers.origin;
    // Browsers send Origin on every non-GET fetch and on cross-origin reads; a foreign
    // one is refused on every request here, reads and the stream included. "null"
    // (sandboxed frames, file: pages) is foreign too.
    if (origin !== undefined && !hosts.origins(req.socket.localPort).includes(origin.toLowerCase())) {
      return next(new ApiError('forbidden', 'Requests from other origins are refused.'));
    }
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      return next(new ApiError('forbidden', 'Requests from other sites are refused.'));
    }
    if (!tokenMatches(token, presentedToken(req))) {
      return next(
        new ApiError('unauthorized', 'The console token is missing or wrong. Open the console from the console_url printed at start.'),
      );
    }
    next();
  };
}
