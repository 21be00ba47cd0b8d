// How one column of an index sidecar (sidecar-format.ts) is stored: whichever of these
// is smallest for its values, each giving back every value exactly (checked when
// encoding: a column that would not round-trip to the bit is stored as it is):
//   raw              the typed array's own little-endian bytes
//   ['c', v]         every value is v (null: NaN); no bytes
//   ['p', w]         each value as a signed integer of w bytes (1, 2 or 4)
//   ['d', w, base]   each value as its difference from the value before it (the first
//                    from `base`), a signed integer of w bytes
// In 'p' and 'd', the smallest integer of the width (-128, -32768, -2^31) stands for NaN
// (a time or number that is null), and a NaN does not move the running value. Most
// columns of a history are constant (status, subscription, URL), counters (sequence
// numbers, offsets) or small numbers (durations, lengths), so a row costs a few bytes
// instead of the ~85 of its raw columns.
export type Column = Float64Array | Int32Array | Uint8Array;
export type ColumnCtor = new (n: number) => Column;
export type ColumnEncoding = ['c', number | null] | ['p', 1 | 2 | 4] | ['d', 1 | 2 | 4, number];

import {
  CHUNK,
  F64,
  I32,
  packDoubles,
  packInts,
  rangeDoubles,
  rangeInts,
  rangeNow,
  rangeStart,
  sameBits,
  unpack,
} from './column-kernels.js';

const WIDTHS = [1, 2, 4] as const;
const MIN = { 1: -128, 2: -32768, 4: -(2 ** 31) } as const;
const MAX = { 1: 127, 2: 32767, 4: 2 ** 31 - 1 } as const;

/** The smallest width whose range (without its NaN marker) holds lo..hi, or 0. */
function widthFor(lo: number, hi: number): 0 | 1 | 2 | 4 {
  for (const w of WIDTHS) if (lo > MIN[w] && hi <= MAX[w]) return w;
  return 0;
}

/** What encodeColumn needs to know of a column's values. */
type Range = ReturnType<typeof rangeNow>;

/** The range of any column (a Float64Array may hold NaN, -0 and fractions), a chunk at a time (column-kernels.ts). */
function rangeOf(col: Float64Array): Range {
  rangeStart(col[0]);
  for (let at = 0; at < col.length; at += CHUNK) rangeDoubles(col, at, Math.min(CHUNK, col.length - at));
  return rangeNow();
}

/** rangeOf for a column of integers: no NaN, -0 or fraction to look for, the same result. */
function intRangeOf(col: Int32Array): Range {
  rangeStart(col[0]);
  for (let at = 0; at < col.length; at += CHUNK) rangeInts(col, at, Math.min(CHUNK, col.length - at));
  return rangeNow();
}

/** A block of one value's bytes over and over, compared against a column a block at a time. */
const PATTERN = new Uint8Array(64 * 1024);

/**
 * Whether every value of `col` has the first one's bits. Compared as bytes by the runtime
 * (Buffer.compare), not value by value in JavaScript: a closing segment's columns are
 * mostly constant (a company, a status, no error yet), and this code runs once per
 * 25,000 deliveries, mostly before V8 has optimized it (docs/benchmark.md, figure 3).
 */
export function isConstant(col: Column): boolean {
  const w = col.BYTES_PER_ELEMENT;
  const bytes = new Uint8Array(col.buffer, col.byteOffset, col.length * w);
  if (bytes.length <= w) return true;
  for (let i = 0; i < w; i++) if (bytes[w + i] !== bytes[i]) return false; // the usual answer for a column that varies
  PATTERN.set(bytes.subarray(0, w));
  for (let f = w; f < PATTERN.length; f *= 2) PATTERN.copyWithin(f, 0, f);
  for (let at = 0; at < bytes.length; at += PATTERN.length) {
    const n = Math.min(PATTERN.length, bytes.length - at);
    if (Buffer.compare(bytes.subarray(at, at + n), PATTERN.subarray(0, n)) !== 0) return false;
  }
  return true;
}

/** The encoding to use for `col` and its bytes; undefined: store it raw. */
export function encodeColumn(col: Column): { enc: ColumnEncoding; bytes: Buffer } | undefined {
  const n = col.length;
  if (n === 0) return undefined;
  const first = col[0];
  const constant = isConstant(col);
  // JSON keeps any finite number but -0 exactly; NaN is written null.
  if (constant && (Number.isNaN(first) || (Number.isFinite(first) && !Object.is(first, -0))))
    return { enc: ['c', Number.isNaN(first) ? null : first], bytes: Buffer.alloc(0) };
  // Bytes: only a constant is smaller than the bytes themselves.
  if (col instanceof Uint8Array) return undefined;
  const { same, plainOk, deltaOk, pLo, pHi, dLo, dHi, base } = col instanceof Float64Array ? rangeOf(col) : intRangeOf(col as Int32Array);
  // JSON keeps any finite number but -0 exactly; NaN is written null.
  if (same && (Number.isNaN(first) || (Number.isFinite(first) && !Object.is(first, -0))))
    return { enc: ['c', Number.isNaN(first) ? null : first], bytes: Buffer.alloc(0) };
  const pw = plainOk ? widthFor(pLo, pHi) : 0;
  const dw = deltaOk ? widthFor(dLo, dHi) : 0;
  const raw = col.BYTES_PER_ELEMENT;
  const best = Math.min(pw || raw, dw || raw);
  if (best >= raw) return undefined;
  const enc: Packed = pw === best ? ['p', pw as 1 | 2 | 4] : ['d', dw as 1 | 2 | 4, Number.isNaN(base) ? 0 : base];
  const bytes = pack(col, enc);
  // Integers of a typed array of integers, each value or difference within the width: exact by
  // construction. Numbers of a Float64Array (NaN, -0, fractions) are checked value by value.
  return !(col instanceof Float64Array) || roundTrips(col, enc, bytes) ? { enc, bytes } : undefined;
}

type Packed = ['p', 1 | 2 | 4] | ['d', 1 | 2 | 4, number];

/** The column's values or differences as integers of the encoding's width, a chunk at a time (column-kernels.ts). */
function pack(col: Column, enc: Packed): Buffer {
  const w = enc[1];
  const n = col.length;
  const out = Buffer.alloc(n * w);
  const dst = intView(out, n, w);
  const delta = enc[0] === 'd';
  let prev = delta ? enc[2] : 0;
  for (let at = 0; at < n; at += CHUNK) {
    const k = Math.min(CHUNK, n - at);
    if (col instanceof Float64Array) {
      prev = packDoubles(col, at, k, delta, prev, MIN[w]);
      dst.set(F64.subarray(0, k), at);
    } else {
      prev = packInts(col as Int32Array, at, k, delta, prev);
      dst.set(I32.subarray(0, k), at);
    }
  }
  return out;
}

/**
 * Whether decoding `bytes` gives `col` back to the bit (what decodeColumn would make, a
 * chunk at a time, compared as it goes: no decoded copy of the column).
 */
function roundTrips(col: Float64Array, enc: Packed, bytes: Buffer): boolean {
  const w = enc[1];
  const src = intView(bytes, col.length, w);
  const delta = enc[0] === 'd';
  let prev = delta ? enc[2] : 0;
  for (let at = 0; at < col.length; at += CHUNK) {
    const k = Math.min(CHUNK, col.length - at);
    F64.set(src.subarray(at, at + k));
    prev = unpack(k, delta, prev, MIN[w]);
    if (!sameBits(col, at, k)) return false;
  }
  return true;
}

/** A column of `n` values from its encoded bytes (into `out` when given), or why it cannot be read. */
export function decodeColumn(Ctor: ColumnCtor, n: number, enc: unknown, bytes: Uint8Array, out: Column = new Ctor(n)): Column | string {
  if (!Array.isArray(enc)) return 'bad column encoding';
  if (enc[0] === 'c' && enc.length === 2 && (enc[1] === null || typeof enc[1] === 'number')) {
    out.fill(enc[1] === null ? NaN : (enc[1] as number));
    return out;
  }
  const w = enc[1] as unknown;
  if ((enc[0] !== 'p' && enc[0] !== 'd') || (w !== 1 && w !== 2 && w !== 4)) return 'bad column encoding';
  if (bytes.length < n * w) return 'column cut short';
  const delta = enc[0] === 'd';
  const base = delta ? (enc[2] as unknown) : 0;
  if (typeof base !== 'number' || !Number.isFinite(base)) return 'bad column encoding';
  const src = intView(bytes, n, w);
  // A chunk at a time through the doubles' scratch (column-kernels.ts): the integers widened
  // and the doubles narrowed to the column's type by TypedArray#set (NaN becomes 0 in an
  // integer column, as an element store makes it).
  let prev = base;
  for (let at = 0; at < n; at += CHUNK) {
    const k = Math.min(CHUNK, n - at);
    F64.set(src.subarray(at, at + k));
    prev = unpack(k, delta, prev, MIN[w]);
    out.set(F64.subarray(0, k), at);
  }
  return out;
}

/** `n` signed integers of `w` bytes from `bytes` (little-endian, as this machine's: see sidecar-format.ts), copied only if misaligned. */
function intView(bytes: Uint8Array, n: number, w: 1 | 2 | 4): Int8Array | Int16Array | Int32Array {
  const at = bytes.byteOffset % w === 0 ? bytes : new Uint8Array(bytes.subarray(0, n * w)); // a Buffer from the pool may start anywhere
  if (w === 1) return new Int8Array(at.buffer, at.byteOffset, n);
  return w === 2 ? new Int16Array(at.buffer, at.byteOffset, n) : new Int32Array(at.buffer, at.byteOffset, n);
}
