// How a sidecar stores its columns (store/history/column-codec.ts): whatever the values,
// decoding gives back every one to the bit (NaN, -0, fractions, huge numbers, the
// markers' own values), and the usual columns of a history (constant, counters, small
// numbers) take one or two bytes a value or none.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeColumn, encodeColumn, type Column, type ColumnCtor } from '../../../src-main/backend/store/history/column-codec.js';
import { CHUNK } from '../../../src-main/backend/store/history/column-kernels.js';

/** The format's definition, value by value: each value (or its difference from the last non-NaN one) as a w-byte integer, NaN as the width's smallest. */
function referenceBytes(col: Column, enc: unknown[]): Buffer {
  const w = enc[1] as 1 | 2 | 4;
  const out = Buffer.alloc(col.length * w);
  const nan = -(2 ** (8 * w - 1));
  let prev = enc[0] === 'd' ? (enc[2] as number) : 0;
  col.forEach((v, i) => {
    const x = Number.isNaN(v) ? nan : enc[0] === 'd' ? v - prev : v;
    if (!Number.isNaN(v)) prev = v;
    out.writeIntLE(x, i * w, w);
  });
  return out;
}

function roundTrip(col: Column): { bytes: number; back: Column } {
  const packed = encodeColumn(col);
  if (!packed) return { bytes: col.byteLength, back: col };
  const back = decodeColumn(col.constructor as ColumnCtor, col.length, JSON.parse(JSON.stringify(packed.enc)), packed.bytes);
  if (typeof back === 'string') throw new Error(back);
  return { bytes: packed.bytes.length, back };
}

function expectSame(a: Column, b: Column) {
  expect(b.constructor).toBe(a.constructor);
  expect(b.length).toBe(a.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect.fail(`value ${i}: ${b[i]} instead of ${a[i]}`);
}

const EDGES = [
  NaN,
  -0,
  0,
  1,
  -1,
  0.5,
  127,
  128,
  -128,
  -129,
  32767,
  -32768,
  -32769,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  2 ** 60,
  1e300,
  Infinity,
  -Infinity,
  1795692097362,
];

describe('sidecar column codec', () => {
  it('gives back any float column exactly', () => {
    const value = fc.oneof(fc.double(), fc.constantFrom(...EDGES), fc.integer({ min: -300, max: 300 }));
    const column = fc.oneof(
      fc.array(value, { maxLength: 60 }),
      // Runs: a counter, a time, the same value, with a few odd values in between.
      fc
        .tuple(
          fc.constantFrom(...EDGES),
          fc.integer({ min: -70_000, max: 70_000 }),
          fc.array(fc.option(value, { freq: 5 }), { maxLength: 60 }),
        )
        .map(([start, step, odd]) => odd.map((o, i) => o ?? start + i * step)),
    );
    fc.assert(
      fc.property(column, (values) => {
        const col = Float64Array.from(values);
        expectSame(col, roundTrip(col).back);
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it('gives back any Int32 and Uint8 column exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer(), fc.integer({ min: -3, max: 3 }), fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, -128, -32768)), {
          maxLength: 60,
        }),
        (values) => {
          const ints = Int32Array.from(values);
          expectSame(ints, roundTrip(ints).back);
          const bytes = Uint8Array.from(values);
          expectSame(bytes, roundTrip(bytes).back);
        },
      ),
      { seed: 12, numRuns: 3000 },
    );
  });

  it('stores the usual columns of a history in a byte or two a value, or none', () => {
    const n = 10_000;
    const seq = Float64Array.from({ length: n }, (_, i) => 1000 + i);
    const created = Float64Array.from({ length: n }, (_, i) => 1_795_692_097_362 + i * 3 + (i % 7));
    const lastAt = Float64Array.from(created, (c, i) => (i % 50 === 0 ? NaN : c + 400 + (i % 90)));
    const status = new Uint8Array(n).fill(1);
    const sub = new Int32Array(n).fill(53);
    const dur = Float64Array.from({ length: n }, (_, i) => 5 + (i % 300));
    expect(roundTrip(seq).bytes).toBe(n);
    expect(roundTrip(created).bytes).toBe(n);
    expect(roundTrip(lastAt).bytes).toBeLessThanOrEqual(2 * n);
    expect(roundTrip(status).bytes).toBe(0);
    expect(roundTrip(sub).bytes).toBe(0);
    expect(roundTrip(dur).bytes).toBe(2 * n);
    for (const col of [seq, created, lastAt, status, sub, dur]) expectSame(col, roundTrip(col).back);
  });

  it('reads a column wherever its bytes start (a file read into a shared buffer)', () => {
    const col = Float64Array.from({ length: 100 }, (_, i) => (i % 9 === 0 ? NaN : 40_000 * Math.sin(i)) | 0);
    const packed = encodeColumn(col);
    expect(packed?.enc[0]).toBe('p');
    const shifted = Buffer.alloc((packed?.bytes.length ?? 0) + 3);
    packed?.bytes.copy(shifted, 3);
    expectSame(col, decodeColumn(Float64Array, col.length, packed?.enc, shifted.subarray(3)) as Float64Array);
  });

  it('encodes and decodes columns longer than its chunk (column-kernels.ts) exactly as the format says, value by value', () => {
    const lengths = fc.constantFrom(CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 17);
    const column = fc.tuple(
      lengths,
      fc.constantFrom(0, 1_795_692_097_362, -5, 2 ** 31 - 200),
      fc.constantFrom(0, 1, 3, -2, 200, 40_000),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(NaN, -0, 0.5, 127, -128, 2 ** 40, -32768)), { maxLength: 6 }),
    );
    fc.assert(
      fc.property(column, ([n, start, step, odd]) => {
        const values = Array.from({ length: n }, (_, i) => start + i * step + (i % 5));
        for (const [at, v] of odd) values[at % n] = v;
        const cols: Column[] = [Float64Array.from(values), Int32Array.from(values)];
        for (const col of cols) {
          const packed = encodeColumn(col);
          if (packed && packed.enc[0] !== 'c') expect(packed.bytes.equals(referenceBytes(col, packed.enc))).toBe(true);
          expectSame(col, roundTrip(col).back);
        }
      }),
      { seed: 13, numRuns: 300 },
    );
  });

  it('refuses an encoding it does not know or bytes cut short', () => {
    expect(decodeColumn(Float64Array, 4, ['x', 1], new Uint8Array(8))).toBe('bad column encoding');
    expect(decodeColumn(Float64Array, 4, ['p', 3], new Uint8Array(12))).toBe('bad column encoding');
    expect(decodeColumn(Float64Array, 4, ['d', 2, null], new Uint8Array(8))).toBe('bad column encoding');
    expect(decodeColumn(Float64Array, 4, ['p', 2], new Uint8Array(6))).toBe('column cut short');
  });
});
