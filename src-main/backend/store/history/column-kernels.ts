// The value-by-value loops of the column codec (column-codec.ts), run a chunk at a time
// over scratch arrays of one kind each.
//
// Why (docs/benchmark.md, figure 3): the codec runs once per closed segment (every 25,000
// deliveries) and at start-up, over columns of three kinds (Float64Array, Int32Array,
// Uint8Array) into or out of integers of three widths. As one loop each, every element
// access met up to nine typed-array kinds: V8 optimized a loop for the kinds it had seen,
// deoptimized it at the next ("wrong map") and optimized it again, a dozen times in one
// close, on stack (OSR) each time since each loop ran once per column. Here each loop
// reads and writes one kind only (a column of its own kind, a scratch array), the width's
// conversion is TypedArray#set's (native), and a loop is a function called once per chunk
// of CHUNK values: called often enough to be optimized as a function, whose code holds no
// map but typed arrays' (which never die), so it stays optimized from one close to the next.

/** Values a kernel handles at a time. */
export const CHUNK = 4096;

/** Scratch: a chunk of values as doubles, and as 32-bit integers (48 KiB together, for the process). */
export const F64 = new Float64Array(CHUNK);
export const I32 = new Int32Array(CHUNK);

/**
 * Into F64[0, k): col[at, at + k) as written by a 'p' or 'd' encoding (column-codec.ts): each
 * value, or its difference from the value before it (`prev`, the last non-NaN value), and
 * `nan` for a NaN. Returns the last non-NaN value.
 */
export function packDoubles(col: Float64Array, at: number, k: number, delta: boolean, prev: number, nan: number): number {
  for (let i = 0; i < k; i++) {
    const v = col[at + i];
    if (v !== v) F64[i] = nan;
    else {
      F64[i] = delta ? v - prev : v;
      prev = v;
    }
  }
  return prev;
}

/** packDoubles for a column of 32-bit integers (no NaN), into I32[0, k). */
export function packInts(col: Int32Array, at: number, k: number, delta: boolean, prev: number): number {
  for (let i = 0; i < k; i++) {
    const v = col[at + i];
    I32[i] = delta ? v - prev : v;
    prev = v;
  }
  return prev;
}

/**
 * F64[0, k) holds a chunk's stored integers (widened by TypedArray#set): makes them the
 * values they stand for, in place (`nan`: NaN; with `delta`, a running sum from `prev`).
 * Returns the running value.
 */
export function unpack(k: number, delta: boolean, prev: number, nan: number): number {
  if (!delta) {
    for (let i = 0; i < k; i++) if (F64[i] === nan) F64[i] = NaN;
    return prev;
  }
  for (let i = 0; i < k; i++) {
    const x = F64[i];
    F64[i] = x === nan ? NaN : (prev += x);
  }
  return prev;
}

/** Whether F64[0, k) and col[at, at + k) hold the same values to the bit (NaN equal to NaN, -0 not 0). */
export function sameBits(col: Float64Array, at: number, k: number): boolean {
  for (let i = 0; i < k; i++) {
    const a = F64[i];
    const b = col[at + i];
    if (a === b ? a === 0 && 1 / a !== 1 / b : a === a || b === b) return false;
  }
  return true;
}

/**
 * A column's range, built up a chunk at a time: RANGE's fields, in order. `same`, `plainOk`
 * and `deltaOk` are 1 or 0; `started` says a non-NaN value was seen; `first` is the column's
 * first value (NaN when it is NaN: compared by bits, below).
 */
const RANGE = new Float64Array(10);
const [SAME, PLAIN_OK, DELTA_OK, P_LO, P_HI, D_LO, D_HI, BASE, PREV, FIRST] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Starts RANGE for a column whose first value is `first`. */
export function rangeStart(first: number): void {
  RANGE.set([1, 1, 1, 0, 0, 0, 0, NaN, NaN, first]);
}

/** RANGE as column-codec.ts reads it. */
export function rangeNow(): {
  same: boolean;
  plainOk: boolean;
  deltaOk: boolean;
  pLo: number;
  pHi: number;
  dLo: number;
  dHi: number;
  base: number;
} {
  return {
    same: RANGE[SAME] === 1,
    plainOk: RANGE[PLAIN_OK] === 1,
    deltaOk: RANGE[DELTA_OK] === 1,
    pLo: RANGE[P_LO],
    pHi: RANGE[P_HI],
    dLo: RANGE[D_LO],
    dHi: RANGE[D_HI],
    base: RANGE[BASE],
  };
}

/** A safe integer other than -0. */
const isInt = (v: number) => Math.floor(v) === v && v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER && (v !== 0 || 1 / v > 0);

/** Adds col[at, at + k) of a column of any numbers (NaN, -0, fractions) to RANGE. */
export function rangeDoubles(col: Float64Array, at: number, k: number): void {
  const first = RANGE[FIRST];
  let same = RANGE[SAME] === 1;
  let plainOk = RANGE[PLAIN_OK] === 1;
  let deltaOk = RANGE[DELTA_OK] === 1;
  let pLo = RANGE[P_LO];
  let pHi = RANGE[P_HI];
  let dLo = RANGE[D_LO];
  let dHi = RANGE[D_HI];
  let base = RANGE[BASE];
  let prev = RANGE[PREV];
  for (let i = 0; i < k; i++) {
    const v = col[at + i];
    // Object.is(v, first), written out.
    if (same && !(v === first ? v !== 0 || 1 / v === 1 / first : v !== v && first !== first)) same = false;
    if (v !== v) continue;
    if (!isInt(v)) {
      plainOk = deltaOk = false;
      continue;
    }
    if (v < pLo) pLo = v;
    if (v > pHi) pHi = v;
    if (prev !== prev) base = prev = v;
    const d = v - prev;
    if (!isInt(d)) deltaOk = false;
    if (d < dLo) dLo = d;
    if (d > dHi) dHi = d;
    prev = v;
  }
  RANGE[SAME] = same ? 1 : 0;
  RANGE[PLAIN_OK] = plainOk ? 1 : 0;
  RANGE[DELTA_OK] = deltaOk ? 1 : 0;
  rangeEnd(pLo, pHi, dLo, dHi, base, prev);
}

/** Writes a chunk's bounds, base and last value back to RANGE. */
function rangeEnd(pLo: number, pHi: number, dLo: number, dHi: number, base: number, prev: number): void {
  RANGE[P_LO] = pLo;
  RANGE[P_HI] = pHi;
  RANGE[D_LO] = dLo;
  RANGE[D_HI] = dHi;
  RANGE[BASE] = base;
  RANGE[PREV] = prev;
}

/** Adds col[at, at + k) of a column of 32-bit integers to RANGE (no NaN, -0 or fraction to look for). */
export function rangeInts(col: Int32Array, at: number, k: number): void {
  const first = RANGE[FIRST];
  let same = RANGE[SAME] === 1;
  let pLo = RANGE[P_LO];
  let pHi = RANGE[P_HI];
  let dLo = RANGE[D_LO];
  let dHi = RANGE[D_HI];
  let prev = at === 0 ? first : RANGE[PREV];
  for (let i = 0; i < k; i++) {
    const v = col[at + i];
    if (v !== first) same = false;
    if (v < pLo) pLo = v;
    if (v > pHi) pHi = v;
    const d = v - prev;
    if (d < dLo) dLo = d;
    if (d > dHi) dHi = d;
    prev = v;
  }
  RANGE[SAME] = same ? 1 : 0;
  rangeEnd(pLo, pHi, dLo, dHi, first, prev);
}
