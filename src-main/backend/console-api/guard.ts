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
//
// The session cookie (set by POST /console/api/sign-in, which itself needs the token)
// lets every tab of a browser that opened the console link once open any console link.
// It is HttpOnly (no page script reads it), SameSite=Strict (no other site's page makes
// the browser send it), path-scoped to /console/api, named per port (two instances on
// one machine never share one), holds a digest of the token rather than the token, and
// is honoured only on a request the browser itself marks `Sec-Fetch-Site: same-origin`:
// a page on another port of 127.0.0.1 (same site, other origin), a link typed in the
// address bar or followed from elsewhere, and an old browser that does not say, all
// need the token itself.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
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

/** The session cookie's name on a listener's port: cookies ignore ports, instances must not share one. */
export function sessionCookieName(port: number | undefined): string {
  return `countersign_console_${port ?? 0}`;
}

/** The cookie's value: a digest of the token (the token itself never sits in the cookie jar). */
export function sessionCookieValue(token: string): string {
  return createHmac('sha256', token).update('countersign console session cookie').digest('base64url');
}

export const SESSION_COOKIE_PATH = '/console/api';

/** Sets the session cookie on an answer: HttpOnly, SameSite=Strict, path-scoped, gone when the browser closes. */
export function setSessionCookie(res: Response, token: string, port: number | undefined): void {
  res.append(
    'Set-Cookie',
    `${sessionCookieName(port)}=${sessionCookieValue(token)}; Path=${SESSION_COOKIE_PATH}; HttpOnly; SameSite=Strict`,
  );
}

/** Removes it (sign out). */
export function clearSessionCookie(res: Response, port: number | undefined): void {
  res.append('Set-Cookie', `${sessionCookieName(port)}=; Path=${SESSION_COOKIE_PATH}; HttpOnly; SameSite=Strict; Max-Age=0`);
}

/** The session cookie's value in the request, if any (the Cookie header parsed by hand: one name). */
function presentedCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  const name = sessionCookieName(req.socket.localPort);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token in a header, or the session cookie on a request the browser marks same-origin. */
function authenticated(req: Request, token: string, cookie: string): boolean {
  if (tokenMatches(token, presentedToken(req))) return true;
  return req.headers['sec-fetch-site'] === 'same-origin' && tokenMatches(cookie, presentedCookie(req));
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
  const cookie = sessionCookieValue(token);
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
    if (!authenticated(req, token, cookie)) {
      return next(
        new ApiError(
          'unauthorized',
          'The console token is missing or wrong. Open the console from the console_url printed at start, or paste its token.',
        ),
      );
    }
    next();
  };
}
