// Console API calls that the shared client (client.ts) does not cover: PATCH, answers
// that are text rather than JSON (copy as curl, the export file), and a request body
// that is already text (an import file, sent as it was read). Same origin, same token
// header, same error shape (ApiRequestError) as client.ts.
import { clientBase, consoleToken, withQuery } from './client.js';
import { ApiRequestError, errorFromResponse, networkError } from './errors.js';

export interface RawOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** An object is sent as JSON; a string is sent as it is (with a JSON content type). */
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
}

async function send(path: string, opts: RawOptions, accept: string): Promise<Response> {
  const token = consoleToken();
  if (!token) throw new ApiRequestError(401, 'unauthorized', 'No console token. Open the console from the console_url printed at start.');
  const headers: Record<string, string> = { Accept: accept, 'X-Console-Token': token };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(`${clientBase()}/console/api${withQuery(path, opts.query)}`, {
      method: opts.method ?? 'GET',
      headers,
      body,
      signal: opts.signal,
      cache: 'no-store',
    });
  } catch (err) {
    if ((err as { name?: string })?.name === 'AbortError') throw err;
    throw networkError(err);
  }
  if (!res.ok) throw await errorFromResponse(res);
  return res;
}

/** A console API call whose answer is JSON (or empty: 204). */
export async function consoleJson<T>(path: string, opts: RawOptions = {}): Promise<T> {
  const res = await send(path, opts, 'application/json');
  const text = await res.text();
  if (res.status === 204 || text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiRequestError(res.status, 'invalid_response', 'The service sent an answer that is not JSON.');
  }
}

/** A console API call whose answer is kept as text; the file name of an attachment comes along. */
export async function consoleText(path: string, opts: RawOptions = {}): Promise<{ text: string; filename: string | null }> {
  const res = await send(path, opts, '*/*');
  const disposition = res.headers.get('content-disposition') ?? '';
  const m = /filename="([^"]+)"/.exec(disposition);
  return { text: await res.text(), filename: m ? m[1] : null };
}
