// One JSON call over real HTTP, for tests of the API and the console API: the body sent
// as JSON (a string as is), the answer's status, headers, text and parsed body
// (undefined when it is not JSON). Redirects are not followed.
import { checkAgainstOpenApi } from './openapi-check.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function callApi(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = null,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const h: Record<string, string> = { ...headers };
  if (key) h['x-api-key'] = key;
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    h['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers: h, body: payload, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * Calls the service API (not the console API) and checks the answer against the OpenAPI
 * document (openapi-check.ts): an undocumented route or answer fails the calling test.
 */
export async function callServiceApi(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = null,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const res = await callApi(base, method, path, body, key, headers);
  checkAgainstOpenApi(method, path, res);
  return res;
}

/** Calls the console API (/console/api…) with the console's per-run token. */
export function consoleCaller(base: string, token: string) {
  return (method: string, path: string, body?: unknown): Promise<ApiResponse> =>
    callApi(base, method, `/console/api${path}`, body, null, { 'x-console-token': token });
}
