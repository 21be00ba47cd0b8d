// What the property-based tests of the HTTP edge generate and check (test/api/
// edge-properties.test.ts): requests built from each listener's route table with
// generated ids, path junk, queries, headers and bodies (from plausible to hostile);
// a raw HTTP client that sends exactly that; the one error shape; and a digest of all
// the state a refused request must leave alone.
import { request as httpRequest } from 'node:http';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Backend } from '../../src-main/backend/index.js';

export interface EdgeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface EdgeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends exactly what it is given (any Host, any path bytes) over one fresh connection, the body framed by its length. */
export function sendRaw(base: string, r: EdgeRequest): Promise<EdgeResponse> {
  const url = new URL(base);
  const headers = r.body ? { ...r.headers, 'content-length': String(r.body.length) } : r.headers;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent: false, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in 10 s to ${r.method} ${r.path}`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** `{"error":{"code","message","details"?}}` and nothing else, with nothing internal in it. */
export function expectErrorShape(res: EdgeResponse, what: string): void {
  expect(String(res.headers['content-type']), what).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as { error: Record<string, unknown> };
  expect(Object.keys(body), what).toEqual(['error']);
  const keys = Object.keys(body.error).sort();
  expect(
    keys.filter((k) => k !== 'details'),
    what,
  ).toEqual(['code', 'message']);
  expect(body.error.code, what).toMatch(/^[a-z_]+$/);
  expect(typeof body.error.message, what).toBe('string');
  if ('details' in body.error) expect(typeof body.error.details, what).toBe('object');
  expect(res.text, what).not.toMatch(/\n\s+at |src-main|node_modules|TypeError|ReferenceError|URIError/);
}

/** Everything a request could change: the store's tables and extensions, every inbox's captures, the delivery log. */
export function stateDigest(b: Backend): string {
  const s = b.store;
  const tables = [s.companies, s.users, s.apiKeys, s.subscriptions, s.documents, s.pendingEvents, s.pendingDeliveries, s.notifications];
  const parts: unknown[] = tables.map((t) => t.all());
  parts.push(s.extensions.get('receiver'));
  for (const id of b.receiver.captures.inboxIds())
    parts.push(
      id,
      b.receiver.captures.list(id).map((c) => [c.id, c.response]),
    );
  for (const c of s.companies.all()) {
    const page = b.history.listDeliveries({ company_id: c.id }, { limit: 100 });
    // A delivery's summary counts its attempts: enough to see one added, without reading them from disk.
    for (const d of page.data) parts.push(d, b.history.getEvent(d.event_id));
  }
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

// ---- generators ----

const PRINTABLE = fc.string({ unit: 'grapheme-ascii', maxLength: 24 });

/** A path segment: a known id, or generated text percent-encoded, or malformed escapes and dot segments. */
export function segment(known: readonly string[]): fc.Arbitrary<string> {
  const junk = fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..', '.', '%2e%2e', '%2F', 'a;b', '__proto__', 'constructor');
  return fc.oneof(
    { weight: 12, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('x') },
    { weight: 2, arbitrary: PRINTABLE.map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: junk },
  );
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/**
 * A method, path and body shape from a route table of "METHOD /path/{name} [shape]"
 * entries: mostly the route's own method, the `{name}` placeholders filled from
 * `ids[name]` (or junk), sometimes more junk below it, and a query.
 */
export function routeFrom(
  routes: readonly string[],
  ids: Record<string, readonly string[]>,
): fc.Arbitrary<{ method: string; path: string; shape: string }> {
  const queryPair = fc.tuple(
    fc.oneof(
      fc.constantFrom('limit', 'starting_after', 'limit[]', 'cursor', 'kind', 'outcome', 'q', 'refs', 'minutes', 'url', 'max_deliveries'),
      PRINTABLE,
    ),
    fc.oneof(fc.constantFrom('', '1', '0', '100', '101', '-1', 'abc', 'delivery', 'capture', '1e9'), PRINTABLE),
  );
  const query = fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 1,
      arbitrary: fc
        .array(queryPair, { minLength: 1, maxLength: 3 })
        .map((q) => `?${q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`),
    },
  );
  const extra = fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: segment([]).map((x) => `/${x}`) });
  const otherMethod = fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
  return fc.tuple(fc.constantFrom(...routes), extra, otherMethod, query).chain(([route, below, other, q]) => {
    const [own, template, shape = ''] = route.split(' ');
    const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    return fc.tuple(...names.map((n) => segment(ids[n] ?? []))).map((values) => {
      let i = 0;
      return { method: other || own, path: `${template.replace(/\{\w+\}/g, () => values[i++])}${below}${q}`, shape };
    });
  });
}

/** Header values that an HTTP client can send (no CR, LF or NUL). */
const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => s.replace(/[\r\n\0]/g, ' ').trim());
const headerName = fc
  .stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/)
  .filter((n) => !/^(host|content-length|transfer-encoding|connection|expect|upgrade|te|trailer)$/i.test(n));

export const extraHeaders = fc.dictionary(headerName, headerValue, { maxKeys: 3 });

/** A body: none, JSON built for the route (valid or near it), any JSON, text, or bytes; with a content type, sometimes compressed. */
export function bodyFor(shapes: fc.Arbitrary<unknown>): fc.Arbitrary<{ body?: Buffer; headers: Record<string, string> }> {
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/merge-patch+json') },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '', 'json') },
  );
  const encoding = fc.oneof(
    { weight: 12, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('gzip', 'identity', 'br') },
  );
  const raw = fc.oneof(
    { weight: 4, arbitrary: shapes.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{', '[1]', 'null', '"x"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}'),
    },
  );
  const bytes = fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a));
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({ headers: {} }) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.oneof({ weight: 5, arbitrary: raw.map((t) => Buffer.from(t, 'utf8')) }, { weight: 1, arbitrary: bytes }),
          contentType,
          encoding,
        )
        .map(([body, type, enc]) => ({
          body,
          headers: { ...(type ? { 'content-type': type } : {}), ...(enc ? { 'content-encoding': enc } : {}) },
        })),
    },
  );
}

/** A value of a field: mostly plausible, sometimes anything JSON can hold. */
export const field = <T>(plausible: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

/** Usually `usual`, sometimes one of `others`, sometimes left out (undefined: the header is not sent). */
export function mostly<T>(usual: T, others: readonly T[]): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant<T | undefined>(usual) },
    { weight: 1, arbitrary: fc.constantFrom<T | undefined>(...others) },
    { weight: 1, arbitrary: fc.constant<T | undefined>(undefined) },
  );
}
