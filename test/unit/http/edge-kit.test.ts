// The pure parts of the HTTP edge kit (src-main/backend/http/): the Host policy, the
// COUNTERSIGN_ALLOWED_HOSTS setting, paging, the one 422 translation and the path check.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig, parseAllowedHosts } from '../../../src-main/backend/config.js';
import { ApiError } from '../../../src-main/backend/errors.js';
import { hostPolicy } from '../../../src-main/backend/http/host-check.js';
import { pageAfter, pageQuery } from '../../../src-main/backend/http/paging.js';
import { isWellFormedPath } from '../../../src-main/backend/http/path-check.js';
import { parse } from '../../../src-main/backend/http/validate.js';

function fieldsOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    return (err as ApiError).details?.fields;
  }
  throw new Error('expected a 422');
}

describe('hostPolicy', () => {
  it('allows the loopback names on the listener’s port only', () => {
    const p = hostPolicy([]);
    for (const host of ['127.0.0.1:4010', 'localhost:4010', 'LocalHost:4010', '[::1]:4010']) expect(p.allows(host, 4010)).toBe(true);
    for (const host of ['evil.example', 'evil.example:4010', '127.0.0.1:4011', '127.0.0.1', 'localhost', '127.0.0.2:4010', '']) {
      expect(p.allows(host, 4010), host).toBe(false);
    }
    expect(p.allows(undefined, 4010)).toBe(false);
    expect(p.allows('127.0.0.1:4010', undefined)).toBe(false);
    expect(p.origins(4010)).toEqual(['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010']);
  });

  it('adds the user’s names: without a port on the listener’s port or none, with one exactly', () => {
    const p = hostPolicy(['api.example.test', 'proxy.test:8443']);
    for (const host of ['api.example.test', 'api.example.test:4010', 'proxy.test:8443']) expect(p.allows(host, 4010), host).toBe(true);
    for (const host of ['api.example.test:4011', 'proxy.test', 'proxy.test:4010', 'x.api.example.test']) {
      expect(p.allows(host, 4010), host).toBe(false);
    }
    expect(p.origins(4010)).toContain('http://api.example.test:4010');
  });
});

describe('COUNTERSIGN_ALLOWED_HOSTS', () => {
  it('is a comma separated list of names, lower-cased, each with an optional port', () => {
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(parseAllowedHosts(' ')).toEqual([]);
    expect(parseAllowedHosts(' Api.Example.TEST , proxy.test:8443,[::2]:80 ,10.0.0.5')).toEqual([
      'api.example.test',
      'proxy.test:8443',
      '[::2]:80',
      '10.0.0.5',
    ]);
    expect(loadConfig([], { COUNTERSIGN_ALLOWED_HOSTS: 'dev.local' }).allowedHosts).toEqual(['dev.local']);
    expect(loadConfig([], {}).allowedHosts).toEqual([]);
  });
  it('refuses what is not a host name, naming the setting', () => {
    for (const bad of ['*', 'a,,b', 'http://x.test', 'x.test/path', 'user@x.test', 'x.test:port', '-x.test', 'a b']) {
      expect(() => parseAllowedHosts(bad), bad).toThrow(ConfigError);
      expect(() => parseAllowedHosts(bad), bad).toThrow(/COUNTERSIGN_ALLOWED_HOSTS/);
    }
  });
});

describe('pageAfter', () => {
  const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
  const idOf = (i: { id: string }) => i.id;
  it('slices after the given id and says whether more follow', () => {
    expect(pageAfter(items, idOf, { limit: 2 }, 'x')).toEqual({ data: [{ id: 'a' }, { id: 'b' }], has_more: true });
    expect(pageAfter(items, idOf, { limit: 2, starting_after: 'b' }, 'x')).toEqual({ data: [{ id: 'c' }, { id: 'd' }], has_more: true });
    expect(pageAfter(items, idOf, { limit: 2, starting_after: 'd' }, 'x')).toEqual({ data: [{ id: 'e' }], has_more: false });
    expect(pageAfter(items, idOf, { limit: 50, starting_after: 'e' }, 'x')).toEqual({ data: [], has_more: false });
    expect(pageAfter([], idOf, { limit: 50 }, 'x')).toEqual({ data: [], has_more: false });
  });
  it('refuses an id that is not in the list with a 422 on starting_after', () => {
    expect(fieldsOf(() => pageAfter(items, idOf, { limit: 2, starting_after: 'zz' }, 'a thing of this company'))).toEqual([
      { field: 'starting_after', message: 'is not a thing of this company' },
    ]);
  });
  it('has the contract’s limit rules', () => {
    expect(parse(pageQuery, {})).toEqual({ limit: 50 });
    expect(parse(pageQuery, { limit: '100', starting_after: 'x' })).toEqual({ limit: 100, starting_after: 'x' });
    expect(fieldsOf(() => parse(pageQuery, { limit: '0' }))).toEqual([{ field: 'limit', message: 'must be at least 1' }]);
    expect(fieldsOf(() => parse(pageQuery, { limit: '1.5' }))).toEqual([
      { field: 'limit', message: 'must be a whole number from 1 to 100' },
    ]);
  });
});

describe('parse: the one 422 translation', () => {
  const schema = z.strictObject({ name: z.string({ error: 'must be a string' }), inner: z.strictObject({ n: z.number() }).optional() });
  it('lists every problem under its dotted field, and each field not accepted by name', () => {
    const fields = fieldsOf(() => parse(schema, { name: 1, extra: 1, other: 2, inner: { n: 1, deep: 1 } })) as unknown[];
    expect(fields).toHaveLength(4);
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'must be a string' },
        { field: 'extra', message: 'is not a field this request accepts' },
        { field: 'other', message: 'is not a field this request accepts' },
        { field: 'inner.deep', message: 'is not a field this request accepts' },
      ]),
    );
  });
  it('reports a problem with the value as a whole under "body", or under the prefix', () => {
    const whole = z.strictObject({ a: z.string().optional() }).refine((v) => v.a !== undefined, 'send "a"');
    expect(fieldsOf(() => parse(whole, {}))).toEqual([{ field: 'body', message: 'send "a"' }]);
    expect(fieldsOf(() => parse(schema, { name: 'x', inner: { n: 'y' } }, 'inboxes.0'))).toEqual([
      { field: 'inboxes.0.inner.n', message: expect.any(String) },
    ]);
  });
});

describe('isWellFormedPath', () => {
  it('refuses malformed percent-escapes and escapes that are not UTF-8', () => {
    for (const ok of ['/', '/documents/doc_1', '/a%20b', '/%C3%A9', '/a/%2F/b']) expect(isWellFormedPath(ok), ok).toBe(true);
    for (const bad of ['/%', '/documents/%', '/%zz', '/a%2', '/%FF', '/%C3', '/%E2/%82%AC']) expect(isWellFormedPath(bad), bad).toBe(false);
  });
});
