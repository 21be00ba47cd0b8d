// Growable typed-array columns for the history index: one number per record in a
// flat array instead of one JavaScript object per record (an object, its hidden
// fields and its strings cost several hundred bytes; a column entry costs 1 to 8).
export type Column = Float64Array | Int32Array | Uint8Array;

/** A copy of `col` with room for `capacity` entries (new entries are 0). */
export function grown<T extends Column>(col: T, capacity: number): T {
  const Ctor = col.constructor as new (n: number) => T;
  const next = new Ctor(capacity);
  next.set(col);
  return next;
}

/** The capacity after `current` when one more entry is needed: half as much again. */
export function nextCapacity(current: number): number {
  return Math.max(1024, Math.ceil(current * 1.5));
}

/** Epoch ms of an ISO time that `new Date(ms).toISOString()` gives back exactly, else NaN. */
export function isoMs(s: unknown): number {
  if (typeof s !== 'string' || s.length !== 24) return NaN;
  const ms = Date.parse(s);
  return Number.isFinite(ms) && new Date(ms).toISOString() === s ? ms : NaN;
}

/** The ISO time of epoch ms, or null for NaN (null stored). */
export function msIso(ms: number): string | null {
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
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
