// Forward mode: an inbox passes each request on to the user's app and answers the sender
// with the app's own answer, streamed through, while the capture keeps the request and
// the first 64 KiB of the answer. What `stripe listen --forward-to` and ngrok do, with the
// receiver's verdict beside it.
// Guards against: the receiver reaching hosts it should not (the target is checked again
// here, forward-target.ts), a slow or silent app holding the sender forever (one timeout
// for the headers and one for the body), a huge answer growing memory (streamed to the
// sender; only what the receiver's memory budget admits, at most 64 KiB, is kept), and
// hop-by-hop headers leaking between the two connections (RFC 9110 section 7.6.1).
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { request } from '../net/undici.js';
import { systemClock } from '../clock.js';
import { forwardAgent, forwardTargetProblem } from './forward-target.js';
import type { ReceiverLimits } from './types.js';
import type { CaptureResponse, ForwardResult } from '@shared/receiver-types.js';
import { HOP_BY_HOP_HEADERS } from '@shared/curl.js';

/** Bytes of the app's body a capture keeps. */
export const FORWARD_BODY_KEEP = 64 * 1024;

/** Request headers never passed on: those of one connection (Host and Content-Length are set anew for the target). */
const REQUEST_HOP: ReadonlySet<string> = new Set<string>([...HOP_BY_HOP_HEADERS, 'proxy-connection']);
/** Answer headers never passed back: the hop-by-hop ones, but Content-Length (the same bytes follow) and those only a request has. */
const ONLY_IN_REQUESTS_OR_KEPT = new Set(['host', 'content-length', 'expect', 'proxy-authorization']);
const ANSWER_HOP: ReadonlySet<string> = new Set(HOP_BY_HOP_HEADERS.filter((h) => !ONLY_IN_REQUESTS_OR_KEPT.has(h)));
const JSON_TYPE = 'application/json; charset=utf-8';

export interface ForwardRequest {
  target: string;
  inboxId: string;
  captureId: string;
  method: string;
  /** Path and query as received (`/in/<inbox_id>/rest?query`). */
  originalUrl: string;
  /** Raw `[name, value]` pairs as received. */
  headers: [string, string][];
  body: Buffer;
}

export interface ForwardOutcome {
  /** What the sender was answered (the app's answer, or the receiver's 502/504). */
  response: CaptureResponse;
  forward: ForwardResult;
}

/** The target plus the path below the inbox, and the query (the target's first, then the request's). */
export function forwardUrl(target: string, originalUrl: string, inboxId: string): string {
  const rest = originalUrl.slice(`/in/${inboxId}`.length);
  const q = rest.indexOf('?');
  const suffix = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q + 1);
  const u = new URL(target);
  const base = u.pathname.endsWith('/') && suffix.startsWith('/') ? u.pathname.slice(0, -1) : u.pathname;
  const search = [u.search.slice(1), query].filter(Boolean).join('&');
  return `${u.origin}${base === '/' && suffix ? '' : base}${suffix}${search ? `?${search}` : ''}`;
}

/** The request's headers as the app gets them: every pair as received but those of one connection. */
export function forwardHeaders(raw: [string, string][]): string[] {
  return raw.filter(([n]) => !REQUEST_HOP.has(n.toLowerCase())).flat();
}

function describeError(err: unknown): { message: string; timeout: boolean } {
  const e = err as { code?: string; message?: string; name?: string };
  const timeout = e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT';
  const text = e?.message || String(err);
  return { message: e?.code && !text.includes(e.code) ? `${e.code}: ${text}` : text, timeout };
}

/** The receiver's own answer when the app gave none: 502 (unreachable, refused) or 504 (no answer in time). */
function failure(res: ServerResponse, captureId: string, status: 502 | 504, code: string, message: string): CaptureResponse {
  const body = JSON.stringify({ error: { code, message } });
  const headers = { 'content-type': JSON_TYPE, 'x-countersign-capture': captureId };
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } else if (!res.writableEnded) res.destroy();
  return { status, headers, body, delay_ms: 0, hang: false };
}

/** Writes a chunk to the sender, waiting while its socket is full; a sender that went away is skipped. */
async function writeToSender(res: ServerResponse, chunk: Buffer): Promise<void> {
  if (res.destroyed || res.writableEnded) return;
  if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
}

/**
 * Sends the request on to the app and streams its answer to `res`. `keep(total)` is asked
 * before each part of the app's body is kept (the receiver's memory budget): when it says
 * no, the rest is still streamed to the sender, only not kept.
 */
export async function forward(
  req: ForwardRequest,
  res: ServerResponse,
  limits: ReceiverLimits,
  keep: (total: number) => boolean,
): Promise<ForwardOutcome> {
  const url = forwardUrl(req.target, req.originalUrl, req.inboxId);
  const result: ForwardResult = { url, status: null, body_size: 0, body_truncated: false, duration_ms: 0, error: null };
  // Real time: what the app took, whatever the service's clock says.
  const started = systemClock.now();
  const done = (response: CaptureResponse): ForwardOutcome => {
    result.duration_ms = systemClock.now() - started;
    return { response, forward: result };
  };
  const refused = forwardTargetProblem(req.target, limits.forwardToAnyHost);
  if (refused) {
    result.error = `The forward target ${refused}.`;
    return done(failure(res, req.captureId, 502, 'forward_refused', result.error));
  }
  try {
    const app = await request(url, {
      method: req.method as 'POST',
      headers: forwardHeaders(req.headers),
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
      dispatcher: forwardAgent(limits.forwardToAnyHost),
      headersTimeout: limits.forwardTimeoutMs,
      bodyTimeout: limits.forwardTimeoutMs,
    });
    result.status = app.statusCode;
    const headers: Record<string, string> = {};
    const wire: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(app.headers)) {
      if (v === undefined || ANSWER_HOP.has(k)) continue;
      wire[k] = v;
      headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    wire['x-countersign-capture'] = headers['x-countersign-capture'] = req.captureId;
    if (!res.destroyed) res.writeHead(app.statusCode, wire);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    for await (const part of app.body) {
      const chunk = part as Buffer;
      result.body_size += chunk.length;
      if (!result.body_truncated) {
        const room = Math.min(chunk.length, FORWARD_BODY_KEEP - keptBytes);
        if (room > 0 && keep(keptBytes + room)) {
          kept.push(room < chunk.length ? Buffer.from(chunk.subarray(0, room)) : chunk);
          keptBytes += room;
        }
        if (keptBytes < result.body_size) result.body_truncated = true;
      }
      await writeToSender(res, chunk);
    }
    if (!res.destroyed) res.end();
    const body = Buffer.concat(kept).toString('utf8');
    return done({ status: app.statusCode, headers, body, delay_ms: 0, hang: false });
  } catch (err) {
    const { message, timeout } = describeError(err);
    result.error = timeout ? `The app did not answer within ${limits.forwardTimeoutMs / 1000} s (${message}).` : message;
    const status = timeout ? 504 : 502;
    const code = timeout ? 'forward_timeout' : 'forward_failed';
    return done(failure(res, req.captureId, status, code, `Could not forward to ${url}: ${result.error}`));
  }
}
