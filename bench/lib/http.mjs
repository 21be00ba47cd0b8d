// Small HTTP helpers for the benchmark's own control traffic (setup, polling). Loopback only.
import { request } from 'undici';

function checkLoopback(url) {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`bench: refusing non-loopback URL ${url}`);
}

/** JSON request; throws with the status and body on a non-2xx answer. */
export async function call(url, { method = 'GET', headers = {}, body } = {}) {
  checkLoopback(url);
  const res = await request(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${method} ${url} -> ${res.statusCode} ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}

/** Raw GET: the exact bytes and content type. */
export async function getRaw(url, headers = {}) {
  checkLoopback(url);
  const res = await request(url, { headers });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  if (res.statusCode !== 200) throw new Error(`GET ${url} -> ${res.statusCode} ${bytes.toString().slice(0, 300)}`);
  return { bytes, contentType: res.headers['content-type'] };
}

/** Polls `fn` until it returns a truthy value; bounded in time and in tries. */
export async function waitFor(what, fn, { timeoutMs = 60_000, intervalMs = 20 } = {}) {
  const deadline = Date.now() + timeoutMs;
  const maxTries = Math.ceil(timeoutMs / intervalMs) + 10;
  let lastSeen;
  for (let i = 0; i < maxTries && Date.now() < deadline; i++) {
    const v = await fn();
    if (v) return v;
    lastSeen = v;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(lastSeen)})`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
