// Replaying a capture to a URL the user gives: byte-exact (same method, headers and
// body), or re-signed (edited body, fresh webhook-timestamp and webhook-signature made
// with the signing module). Guards against: non-HTTP schemes (only http and https),
// redirects being followed to somewhere the user did not name (never followed), a slow
// target holding the request forever (bounded timeouts), huge answers (first 64 KiB
// kept), and secrets in the answer (the secret used is named by fingerprint only).
import { request } from '../net/undici.js';
import { parseSecret, signPayload } from '../delivery/signing.js';
import { validationError } from '../errors.js';
import { newId } from '../ids.js';
import { fingerprint } from './verdict.js';
import { systemClock, type Clock } from '../clock.js';
import type { Capture } from './types.js';
import type { ReplayInput, ReplayResult } from '@shared/receiver-types.js';
import { HOP_BY_HOP_HEADERS } from '@shared/curl.js';

/** Headers that belong to one connection, or that the HTTP client sets itself (the list copy as curl skips too). */
const HOP_HEADERS: ReadonlySet<string> = new Set<string>(HOP_BY_HOP_HEADERS);
const SIGNATURE_HEADERS = new Set(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
const RESPONSE_KEEP = 64 * 1024;

export function checkTargetUrl(url: unknown, field = 'url'): string {
  if (typeof url !== 'string' || url.length > 2048)
    throw validationError([{ field, message: 'must be an http or https URL of at most 2,048 characters' }]);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw validationError([{ field, message: 'is not an absolute URL' }]);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw validationError([{ field, message: 'must use http or https' }]);
  return u.toString();
}

/** The request a replay would send (also used to build the curl command). */
export function replayRequest(capture: Capture, input: ReplayInput, inboxSecret: string | undefined, now: number) {
  const kept = capture.headers.filter(([n]) => !HOP_HEADERS.has(n.toLowerCase()));
  if (input.mode === 'exact') {
    if (input.body !== undefined || input.secret !== undefined) {
      throw validationError([
        { field: input.body !== undefined ? 'body' : 'secret', message: 'only a "resign" replay can change the body or the secret' },
      ]);
    }
    return { method: capture.method, headers: kept, body: capture.body, secret_fingerprint: null };
  }
  const secret = input.secret ?? inboxSecret;
  if (!secret) throw validationError([{ field: 'secret', message: 'this inbox has no secret to re-sign with; give one' }]);
  const parsed = parseSecret(secret);
  if (!parsed.ok) throw validationError([{ field: 'secret', message: parsed.reason }]);
  const body = input.body !== undefined ? Buffer.from(input.body, 'utf8') : capture.body;
  const msgId = capture.webhook_id ?? newId('msg');
  const headers = kept.filter(([n]) => !SIGNATURE_HEADERS.has(n.toLowerCase()));
  headers.push(
    ['webhook-id', msgId],
    ['webhook-timestamp', String(now)],
    ['webhook-signature', signPayload({ secret, msgId, timestamp: now, body })],
  );
  const method = capture.method === 'GET' || capture.method === 'HEAD' ? 'POST' : capture.method;
  return { method, headers, body, secret_fingerprint: fingerprint(secret) };
}

export async function replay(
  capture: Capture,
  input: ReplayInput,
  inboxSecret: string | undefined,
  clock: Clock,
  timeoutMs = 15_000,
): Promise<ReplayResult> {
  const url = checkTargetUrl(input.url);
  const req = replayRequest(capture, input, inboxSecret, Math.floor(clock.now() / 1000));
  // The duration is real time, whatever the service's clock says.
  const started = systemClock.now();
  const result: ReplayResult = {
    url,
    mode: input.mode,
    request: { method: req.method, headers: req.headers, body_size: req.body.length, secret_fingerprint: req.secret_fingerprint },
    response: null,
    error: null,
    duration_ms: 0,
  };
  try {
    const res = await request(url, {
      method: req.method as 'POST',
      headers: req.headers.flat(),
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      if (size + b.length > RESPONSE_KEEP) {
        chunks.push(b.subarray(0, RESPONSE_KEEP - size));
        truncated = true;
        res.body.destroy();
        break;
      }
      chunks.push(b);
      size += b.length;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    result.response = { status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8'), truncated };
  } catch (err) {
    result.error = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  }
  result.duration_ms = systemClock.now() - started;
  return result;
}
