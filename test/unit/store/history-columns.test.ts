// The history index's time columns (store/history/columns.ts): isoMs reads ISO times
// without Date.parse, so it is checked against the definition it replaces (Date.parse,
// kept only when toISOString gives the same string back) on generated and edge inputs;
// msIso is toISOString.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoMs, msIso } from '../../../src-main/backend/store/history/columns.js';

function byDefinition(s: unknown): number {
  if (typeof s !== 'string' || s.length !== 24) return NaN;
  const ms = Date.parse(s);
  return Number.isFinite(ms) && new Date(ms).toISOString() === s ? ms : NaN;
}

const MAX_MS = 8.64e15;

describe('isoMs', () => {
  it('agrees with Date.parse + toISOString on canonical times of any year', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_198_755_200_000, max: 253_402_300_799_999 }), (ms) => {
        const s = new Date(ms).toISOString();
        expect(isoMs(s)).toBe(byDefinition(s));
        if (s.length === 24) expect(isoMs(s)).toBe(ms);
      }),
      { seed: 9, numRuns: 20_000 },
    );
  });

  it('agrees on strings that look like times but are not canonical', () => {
    // Each field replaced by two or three digits (or a character) that may be out of range.
    const field = fc.stringMatching(/^[0-9]{2}$/);
    const timeLike = fc
      .tuple(
        fc.stringMatching(/^[0-9]{4}$/),
        field,
        field,
        field,
        field,
        field,
        fc.stringMatching(/^[0-9]{3}$/),
        fc.constantFrom('-', '/', 'T', ':', '.', 'Z', ' ', '+'),
      )
      .map(([y, mo, d, h, mi, s, ms, sep]) => {
        const base = `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`;
        return sep === '-' ? base : base.slice(0, 13) + sep + base.slice(14);
      });
    fc.assert(
      fc.property(fc.oneof(timeLike, fc.string({ minLength: 24, maxLength: 24 })), (s) => {
        expect(Object.is(isoMs(s), byDefinition(s))).toBe(true);
      }),
      { seed: 10, numRuns: 20_000 },
    );
  });

  it('refuses days a month does not have, 24:00, leap seconds, and non-strings', () => {
    for (const s of [
      '2023-02-29T00:00:00.000Z',
      '2100-02-29T00:00:00.000Z',
      '2024-04-31T00:00:00.000Z',
      '2024-01-01T24:00:00.000Z',
      '2016-12-31T23:59:60.000Z',
      '2024-00-10T00:00:00.000Z',
      '2024-13-10T00:00:00.000Z',
      '2024-01-00T00:00:00.000Z',
      '2024-01-01T00:00:00.000+',
      '2024-01-01T00:00:00,000Z',
      '0099-01-01T00:00:00.000Z'.replace('0099', '-099'),
    ])
      expect(isoMs(s), s).toBeNaN();
    expect(isoMs(0)).toBeNaN();
    expect(isoMs(null)).toBeNaN();
    expect(isoMs('2024-01-01T00:00:00Z')).toBeNaN();
    expect(isoMs('2024-02-29T23:59:59.999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
    expect(isoMs('2000-02-29T00:00:00.000Z')).toBe(Date.UTC(2000, 1, 29));
    expect(isoMs('0050-06-01T12:00:00.000Z')).toBe(byDefinition('0050-06-01T12:00:00.000Z'));
  });
});

describe('msIso', () => {
  it('is toISOString for every valid time, null for NaN', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MS, max: MAX_MS }), (ms) => {
        expect(msIso(ms)).toBe(new Date(ms).toISOString());
      }),
      { seed: 11, numRuns: 20_000 },
    );
    expect(msIso(NaN)).toBeNull();
  });
});
