// The console's HTTP client. Two audiences on the same origin: the service API (as
// any client: X-Api-Key, the console session's admin key, held only in memory) and
// the console API (the per-run console token). Every failure becomes an
// ApiRequestError in the contract's shape.
import { ApiRequestError, errorFromResponse, networkError } from './errors.js';

interface ClientState {
  /** '' = the page's own origin; tests point it at a backend on 127.0.0.1. */
  base: string;
  consoleToken: string | null;
  apiKey: string | null;
}

const state: ClientState = { base: '', consoleToken: null, apiKey: null };

export function configureClient(patch: Partial<ClientState>): void {
  Object.assign(state, patch);
}

export function clientBase(): string {
  return state.base;
}

export function consoleToken(): string | null {
  return state.consoleToken;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  query?: Record<string, string | number | undefined | null>;
}

export function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function request<T>(path: string, headers: Record<string, string>, opts: RequestOptions): Promise<T> {
  const init: RequestInit = {
    method: opts.method ?? 'GET',
    headers: { Accept: 'application/json', ...headers },
    signal: opts.signal,
    cache: 'no-store',
  };
  if (opts.body !== undefined) {
    init.body = JSON.stringify(opts.body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(state.base + withQuery(path, opts.query), init);
  } catch (err) {
    if ((err as { name?: string })?.name === 'AbortError') throw err;
    throw networkError(err);
  }
  if (!res.ok) throw await errorFromResponse(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiRequestError(res.status, 'invalid_response', 'The service sent an answer that is not JSON.');
  }
}

/** A call to the service API (`/v2/...`, `/documents/...`) with the session's key. */
export function serviceApi<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  if (!state.apiKey) return Promise.reject(new ApiRequestError(401, 'unauthorized', 'The console has no API key yet.'));
  return request<T>(path, { 'X-Api-Key': state.apiKey }, opts);
}

/** A call to the console API (`/console/api/...`) with the console token. */
export function consoleApi<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  if (!state.consoleToken)
    return Promise.reject(
      new ApiRequestError(401, 'unauthorized', 'No console token. Open the console from the console_url printed at start.'),
    );
  return request<T>(`/console/api${path}`, { 'X-Console-Token': state.consoleToken }, opts);
}
