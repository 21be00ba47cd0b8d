// The history log's line encoders write single values through json-text.ts instead of
// JSON.stringify; the bytes on disk must not change, so each helper must give exactly
// JSON.stringify's text for every value, the awkward ones included.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonString, jsonValue } from '../../../src-main/backend/store/history/json-text.js';

const awkward: unknown[] = [
  '',
  'plain id msg_2x9aQ3bZk1pLm0nOvWcEr5Ty',
  'quote " backslash \\ slash /',
  'controls \u0000 \u0008 \t \n \u001f, and \u007f \u2028 \u2029 left as they are',
  'pair 😀 and lone \ud800 and \udc00',
  'é ü ß 中文',
  0,
  -0,
  1.5,
  -1e21,
  1e21,
  2 ** 53 + 2,
  Number.MIN_VALUE,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  null,
  undefined,
  () => 1,
  Symbol('s'),
  { a: 1, b: ['x', null] },
  ['a', 1],
  new Date(0),
];

describe('json-text', () => {
  it('gives exactly what JSON.stringify gives for awkward values', () => {
    for (const v of awkward) expect(jsonValue(v)).toBe(JSON.stringify(v));
    for (const v of awkward) if (typeof v === 'string') expect(jsonString(v)).toBe(JSON.stringify(v));
  });

  it('gives exactly what JSON.stringify gives for generated strings and values (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s));
        expect(jsonValue(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue()), (v) => {
        expect(jsonValue(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 2000 },
    );
  });
});
