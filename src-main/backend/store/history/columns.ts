// Growable typed-array columns for the history index: one number per record in a
// flat array instead of one JavaScript object per record (an object, its hidden
// fields and its strings cost several hundred bytes; a column entry costs 1 to 8).
import { isoTime } from '../../clock.js';

export type Column = Float64Array | Int32Array | Uint32Array | Uint8Array;

// A column grows in place: its entries live in a resizable ArrayBuffer, which reserves
// address space for many more entries and commits memory page by page as it grows (V8
// maps it straight from the system, not through malloc). Growing therefore copies
// nothing, leaves no old copy behind for the garbage collector, and leaves no hole in
// malloc's heap (a copied column left its old copy there, and freed copies of a few MiB
// piled up as resident memory that the process never gave back: docs/storage.md).

/** An ArrayBuffer made with a maxByteLength (ES2024; lib ES2023 does not type it). */
interface ResizableBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const Resizable = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableBuffer;

/** Entries reserved at a column's first growth: address space only, committed as used. */
export const RESERVED_ENTRIES = 1 << 22;

/** Bytes to reserve for a buffer that needs `bytes` now and grows by steps of `entryBytes`. */
function reserveFor(bytes: number, entryBytes: number, entries = RESERVED_ENTRIES): number {
  return Math.max(entries * entryBytes, bytes * 2);
}

/**
 * `col` with room for `capacity` entries (new entries are 0): the same array grown in
 * place while its reservation allows, else a copy in a new, larger reservation (of
 * `reserve` entries, or twice what is needed if more). A structure that holds many
 * such arrays (history/slot-lists.ts) reserves less than a column's four million.
 */
export function grown<T extends Column>(col: T, capacity: number, reserve = RESERVED_ENTRIES): T {
  const buf = col.buffer as ResizableBuffer;
  const bytes = capacity * col.BYTES_PER_ELEMENT;
  if (isTracking(col) && bytes <= buf.maxByteLength) {
    if (bytes > buf.byteLength) buf.resize(bytes);
    return col;
  }
  const Ctor = col.constructor as new (b: ArrayBuffer) => T;
  const next = new Ctor(new Resizable(bytes, { maxByteLength: reserveFor(bytes, col.BYTES_PER_ELEMENT, reserve) }));
  next.set(col);
  return next;
}

/** Whether `col` is a whole, length-tracking view of a resizable buffer (one that grown() made). */
function isTracking(col: Column): boolean {
  const buf = col.buffer as ResizableBuffer;
  return buf.resizable === true && col.byteOffset === 0 && col.byteLength === buf.byteLength;
}

/**
 * `col` cut to `capacity` entries, its room above them given back to the system (a
 * resizable buffer returns the pages it shrinks by): the same array when grown() made it,
 * else `col` as it is. For a structure whose entries were compacted below `capacity`.
 */
export function shrunk<T extends Column>(col: T, capacity: number): T {
  const bytes = capacity * col.BYTES_PER_ELEMENT;
  if (isTracking(col) && bytes < col.byteLength) (col.buffer as ResizableBuffer).resize(bytes);
  return col;
}

/**
 * Moves the rows marked in use (`to[r] >= 0`) of `cols` down to the lowest numbers,
 * keeping their order, and writes each one's new number into `to` (those not in use stay
 * -1). Returns how many rows are in use. The compactions of cold rows and attempt
 * locations (compact-rows.ts) share it.
 */
export function packRows(to: Int32Array, used: number, cols: readonly Column[]): number {
  let m = 0;
  for (let r = 0; r < used; r++) {
    if (to[r] < 0) continue;
    if (r !== m) for (const col of cols) col[m] = col[r];
    to[r] = m++;
  }
  return m;
}

/**
 * `buf`'s first `used` bytes with room for `size` in all: the same array, grown in place
 * while its reservation allows (as grown()), else a copy in a new, larger reservation.
 * A plain Uint8Array, never a Buffer: V8 (Node 20) gives every typed array of a subclass
 * (node's Buffer is one) made over a resizable buffer a hidden class (map) of its own, so
 * each new Buffer here made the code reading the bytes deoptimize ("wrong map") and, past
 * four, read them through a generic, slow path; plain Uint8Arrays over resizable buffers
 * all share one map (docs/benchmark.md, figure 3).
 */
export function grownBytes(buf: Uint8Array, used: number, size: number): Uint8Array {
  if (isTracking(buf) && size <= (buf.buffer as ResizableBuffer).maxByteLength) {
    if (size > buf.byteLength) (buf.buffer as ResizableBuffer).resize(size);
    return buf;
  }
  const next = new Uint8Array(new Resizable(size, { maxByteLength: reserveFor(size, 32) }));
  next.set(buf.subarray(0, used));
  return next;
}

/** The Latin-1 text of `bytes` from `from` to `to` (one character a byte), without making a Buffer over them (grownBytes() says why). */
export function latin1Of(bytes: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let at = from; at < to; at += LATIN1_PIECE)
    text += String.fromCharCode.apply(null, bytes.subarray(at, Math.min(to, at + LATIN1_PIECE)) as unknown as number[]);
  return text;
}
const LATIN1_PIECE = 4096; // characters a call (well under any engine's limit on arguments)

/**
 * An ArrayBuffer of `bytes` that V8 maps from the system itself (a resizable buffer that
 * never grows), not through malloc: when it is collected, its pages are unmapped. A
 * malloc'd block of 128 KiB or more, once freed, raises glibc's mmap threshold for good
 * (docs/architecture.md, "Memory"), so big buffers that come and go are made this way.
 */
export function systemBuffer(bytes: number): ArrayBuffer {
  return new Resizable(bytes, { maxByteLength: Math.max(bytes, 1) });
}

/**
 * A typed array of `n` zeroed entries in a systemBuffer (mapped from the system, not
 * malloc'd), for arrays of tens of KiB and more that live only while the history is
 * loaded or rebuilt: what a sidecar decodes to, the sums made from it. Each such malloc'd
 * block (glibc's mmap threshold ends at ~2.3 MB here) went into the C heap, and the small
 * blocks malloc'd meanwhile for what lives on kept the heap from shrinking once they were
 * freed: a rebuild of 140,000 deliveries left ~12 MiB free but resident there
 * (docs/storage.md, "The delivery history in memory").
 */
export function systemArray<T extends Column>(Ctor: SystemArrayCtor<T>, n: number): T {
  return new Ctor(systemBuffer(n * Ctor.BYTES_PER_ELEMENT));
}

/** A typed array of `n` zeroed entries, malloc'd as usual (start-up's choice: systemArray's fresh pages cost it ~10 % more CPU). */
export function plainArray<T extends Column>(Ctor: SystemArrayCtor<T>, n: number): T {
  return new (Ctor as unknown as new (n: number) => T)(n);
}

/** systemArray or plainArray: how a load makes the arrays that live only while it runs. */
export type ArrayMaker = <T extends Column>(Ctor: SystemArrayCtor<T>, n: number) => T;

/** A typed array's constructor, as systemArray() calls it. */
export interface SystemArrayCtor<T extends Column> {
  new (buffer: ArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * An empty column of `Ctor`'s kind over a resizable buffer, as grown() makes them (no room
 * reserved until its first growth). A structure's columns start this way so that the code
 * reading them only ever meets typed arrays over resizable buffers: V8 gives a typed array
 * over a plain buffer another hidden class (map), and a site that meets both deoptimizes
 * ("wrong map") and is compiled again (docs/benchmark.md, figure 3).
 */
export function emptyColumn<T extends Column>(Ctor: new (buffer: ArrayBuffer) => T): T {
  return new Ctor(new Resizable(0, { maxByteLength: 0 }));
}

/** The capacity after `current` when one more entry is needed: half as much again. */
export function nextCapacity(current: number): number {
  return Math.max(1024, Math.ceil(current * 1.5));
}

/** Epoch ms of an ISO time that `new Date(ms).toISOString()` gives back exactly, else NaN. */
export function isoMs(s: unknown): number {
  if (typeof s !== 'string' || s.length !== 24) return NaN;
  // The usual case, "YYYY-MM-DDTHH:MM:SS.mmmZ" with a year from 1000 on, is read digit by
  // digit (Date.parse plus toISOString to check it cost microseconds, several times per
  // attempt); a field out of its range is not canonical, so NaN. Anything else: the
  // general path.
  const y = digits(s, 0, 4);
  if (y < 1000 || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== '.' || s[23] !== 'Z')
    return isoMsSlow(s);
  const mo = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  const ms = digits(s, 20, 3);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0) return NaN;
  return Date.UTC(y, mo - 1, d, h, mi, sec, ms);
}

function isoMsSlow(s: string): number {
  const ms = Date.parse(s);
  return Number.isFinite(ms) && new Date(ms).toISOString() === s ? ms : NaN;
}

/** The number written by `n` ASCII digits at `at`, or -1 if one is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

function daysIn(y: number, mo: number): number {
  if (mo !== 2) return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
}

/** The ISO time of epoch ms, or null for NaN (null stored). */
export function msIso(ms: number): string | null {
  return Number.isNaN(ms) ? null : isoTime(ms);
}

/** A finite number, or NaN for null (null stored); undefined if the value is neither. */
export function numOrNull(v: unknown): number | undefined {
  if (v === null) return NaN;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * The order of an object's own keys when they are all of `keys` and some of `tail`:
 * null for exactly `keys` in that order then those of `tail` in theirs (the usual case),
 * else the keys joined by commas; undefined when they are not those keys.
 */
export function keyShape(o: object, keys: readonly string[], tail: readonly string[]): string | null | undefined {
  if (keysInOrder(o, keys, tail)) return null;
  const own = Object.keys(o);
  let required = 0;
  for (const k of own) {
    if (keys.includes(k)) required++;
    else if (!tail.includes(k)) return undefined;
  }
  return required === keys.length && own.every((k) => Object.hasOwn(o, k)) ? own.join(',') : undefined;
}

/** The same values with their keys in the order `shape` (from keyShape) names. */
export function reshaped<T extends object>(v: T, shape: string): T {
  const out: Record<string, unknown> = {};
  for (const k of shape.split(',')) out[k] = (v as Record<string, unknown>)[k];
  return out as T;
}

/** Whether an object's own keys are exactly `keys` in that order, then some of `tail` (in that order, each once). */
export function keysInOrder(o: object, keys: readonly string[], tail: readonly string[]): boolean {
  let i = 0;
  let t = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) return false;
    if (i < keys.length) {
      if (k !== keys[i++]) return false;
      continue;
    }
    while (t < tail.length && tail[t] !== k) t++;
    if (t === tail.length) return false;
    t++;
  }
  return i === keys.length;
}
