// The console's one HTTP client. Two audiences on the same origin: the service API (as
// any client: X-Api-Key, the console session's admin key) and the console API (the
// per-run console token). Every method, JSON or raw text bodies, JSON or text answers
// (with an attachment's file name); every failure becomes an ApiRequestError in the
// contract's shape. Console calls carry the token this page was opened with, or else
// ride on the browser's session cookie (signIn).
//
// The session's key is never kept here: a service call reads it from the session
// query's data in the QueryClient making the call (queryFn and mutationFn both receive
// it), so a fresh session (a new key) is used from the moment it is in the cache, and
// fetching the session has no side effect.
//
// On a remote connection (api/connection.ts) a service call goes to the backend's
// pass-through, /console/api/connections/{id}/remote/<path>, with the console's own
// credentials: the backend holds the remote's key, the page never does.
import type { QueryClient } from '@tanstack/react-query';
import { LOCAL_CONNECTION } from '@shared/connection-types.js';
import { currentConnectionId } from './connection.js';
import type { ConsoleSession } from '@shared/api-types.js';
import { ApiRequestError, errorFromResponse, networkError } from './errors.js';
import { sessionKeys } from './keys.js';

/** The page size of every paged list the console asks for. */
export const PAGE_SIZE = 25;

interface ClientState {
  /** '' = the page's own origin; tests point it at a backend on 127.0.0.1. */
  base: string;
  consoleToken: string | null;
}

const state: ClientState = { base: '', consoleToken: null };

/** Set once at start-up (main.tsx: the token from the URL fragment, if any; tests: their backend). */
export function configureClient(patch: Partial<ClientState>): void {
  Object.assign(state, patch);
}

export function clientBase(): string {
  return state.base;
}

export function consoleToken(): string | null {
  return state.consoleToken;
}

export type QueryParams = Record<string, string | number | undefined | null>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** A body that is already JSON text (a file as it was read), sent as it is. */
  rawBody?: string;
  query?: QueryParams;
  signal?: AbortSignal;
}

export interface ServiceOptions extends RequestOptions {
  /** The QueryClient making the call: the key is its console session's. */
  client: QueryClient;
  /** The service to call: 'local' or a connection's id (the current one when absent). */
  connection?: string;
}

export interface TextAnswer {
  text: string;
  /** The file name of an attachment (Content-Disposition), if the answer is one. */
  filename: string | null;
}

export function withQuery(path: string, query?: QueryParams): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The console session's key in this QueryClient (memory only), or null before the session is in. */
export function sessionKeyOf(client: QueryClient): string | null {
  return client.getQueryData<ConsoleSession>(sessionKeys.all)?.api_key ?? null;
}

async function send(path: string, auth: Record<string, string>, opts: RequestOptions, accept: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept, ...auth };
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(state.base + withQuery(path, opts.query), {
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

async function jsonOf<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (res.status === 204 || text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiRequestError(res.status, 'invalid_response', 'The service sent an answer that is not JSON.');
  }
}

function serviceAuth(client: QueryClient): Record<string, string> {
  const key = sessionKeyOf(client);
  if (!key) throw new ApiRequestError(401, 'unauthorized', 'The console has no API key yet.');
  return { 'X-Api-Key': key };
}

/** The token this page was opened with, if any; otherwise the browser's session cookie (same origin) speaks for it. */
function consoleAuth(): Record<string, string> {
  return state.consoleToken ? { 'X-Console-Token': state.consoleToken } : {};
}

/**
 * Signs this browser in with a console token (POST /console/api/sign-in sets an HttpOnly
 * session cookie), so that any console link opens in any of its tabs. Rejects with the
 * API's error (401 for a token that is not this run's).
 */
export async function signIn(token: string): Promise<void> {
  await send('/console/api/sign-in', { 'X-Console-Token': token }, { method: 'POST' }, 'application/json');
}

/** A call to the service API (`/v2/...`, `/documents/...`) with the session's key; the answer is JSON (or empty). */
export async function serviceApi<T>(path: string, opts: ServiceOptions): Promise<T> {
  const connection = opts.connection ?? currentConnectionId();
  if (connection !== LOCAL_CONNECTION) return consoleApi<T>(`/connections/${encodeURIComponent(connection)}/remote${path}`, opts);
  return jsonOf<T>(await send(path, serviceAuth(opts.client), opts, 'application/json'));
}

/** A call to the console API (`/console/api/...`) with the console token or the session cookie; the answer is JSON (or empty). */
export async function consoleApi<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return jsonOf<T>(await send(`/console/api${path}`, consoleAuth(), opts, 'application/json'));
}

/** A console API call whose answer is kept as text (a curl command, the export file). */
export async function consoleText(path: string, opts: RequestOptions = {}): Promise<TextAnswer> {
  const res = await send(`/console/api${path}`, consoleAuth(), opts, '*/*');
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return { text: await res.text(), filename: m ? m[1] : null };
}
