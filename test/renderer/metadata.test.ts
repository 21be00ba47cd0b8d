// Metadata checked in the page before sending, with the service's limits.
import { describe, expect, it } from 'vitest';
import { checkMetadata } from '../../src-renderer/screens/document/metadata.js';

describe('checkMetadata', () => {
  it('accepts an object, __proto__ as plain data included', () => {
    const r = checkMetadata('{"a": 1, "__proto__": {"polluted": true}}');
    expect(r.ok).toBe(true);
    if (r.ok) expect(Object.keys(r.value)).toEqual(['a', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says what is wrong: bad JSON, not an object, too many keys, a long key', () => {
    expect(checkMetadata('{"a":')).toMatchObject({ ok: false, message: expect.stringContaining('Not valid JSON') });
    expect(checkMetadata('[1,2]')).toMatchObject({ ok: false, message: expect.stringContaining('JSON object') });
    expect(checkMetadata('null')).toMatchObject({ ok: false });
    const many = JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])));
    expect(checkMetadata(many)).toMatchObject({ ok: false, message: expect.stringContaining('51') });
    expect(checkMetadata(JSON.stringify({ ['x'.repeat(41)]: 1 }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('40 characters'),
    });
    expect(checkMetadata(JSON.stringify({ ['x'.repeat(40)]: 1 })).ok).toBe(true);
  });
});
