// Calls to a remote deployment of the service, made by the backend on the console's
// behalf with the connection's key. Guards against a remote that hangs or floods the
// console: one deadline covers the whole exchange (connect, headers, body), answers
// past MAX_REMOTE_BYTES are refused, redirects are never followed (a key is never sent
// to a second origin). A remote that is down, slow or answers garbage becomes one of
// three errors that say so in words; any answer it did send is passed on as it came.
import { request } from '../net/undici.js';
import { systemClock } from '../clock.js';
import { ApiError } from '../errors.js';

export const DEFAULT_REMOTE_TIMEOUT_MS = 15_000;
export const MAX_REMOTE_BYTES = 8 * 1024 * 1024;

export interface RemoteCall {
  /** Shown in error messages: the connection's name. */
  name: string;
  baseUrl: string;
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query, starting with "/". */
  path: string;
  /** JSON text, for POST and PUT. */
  body?: string;
  timeoutMs: number;
}

export interface RemoteAnswer {
  status: number;
  contentType: string | null;
  body: Buffer;
  durationMs: number;
}

function networkCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  return e?.code ?? e?.cause?.code ?? e?.message ?? 'unknown error';
}

async function readCapped(body: AsyncIterable<Buffer>, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_REMOTE_BYTES)
      throw new ApiError('remote_invalid_response', `${name} sent an answer larger than ${MAX_REMOTE_BYTES} bytes; it was not read.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** One call to the remote: its answer whatever the status, or a remote_* ApiError when none came. */
export async function callRemote(call: RemoteCall): Promise<RemoteAnswer> {
  const started = systemClock.now();
  const controller = new AbortController();
  const timer = systemClock.setTimeout(() => controller.abort(), call.timeoutMs);
  const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': call.key, 'user-agent': 'Countersign' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await request(call.baseUrl + call.path, {
      method: call.method,
      headers,
      body: call.body,
      signal: controller.signal,
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
    const body = await readCapped(res.body, call.name);
    const type = res.headers['content-type'];
    return {
      status: res.statusCode,
      contentType: typeof type === 'string' ? type : null,
      body,
      durationMs: systemClock.now() - started,
    };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const code = networkCode(err);
    if (controller.signal.aborted || /timeout/i.test(code))
      throw new ApiError('remote_timeout', `${call.name} did not answer within ${call.timeoutMs / 1000} s (${call.baseUrl}).`);
    throw new ApiError('remote_unreachable', `Could not reach ${call.name} at ${call.baseUrl} (${code}). It may be offline.`);
  } finally {
    systemClock.clearTimeout(timer);
  }
}

/** True when the answer's body is JSON (application/json or +json). */
export function isJsonAnswer(a: RemoteAnswer): boolean {
  const mime = a.contentType?.split(';')[0].trim().toLowerCase() ?? '';
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}
