// JSON.stringify of single values for the history log's line encoders (compact.ts,
// records.ts, headers-codec.ts), which run a few dozen times per delivery: most values
// are ids, URLs, ISO times and small numbers with nothing to escape, and wrapping such
// a string in quotes costs a fraction of a call into JSON.stringify. Anything else goes
// to JSON.stringify itself, so the text is always exactly what it would have written.

/** No quote, backslash, control character or surrogate: JSON writes the string as it is, between quotes. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** JSON.stringify(s) for a string. */
export function jsonString(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : JSON.stringify(s);
}

/** JSON.stringify(v), undefined where it gives undefined (undefined, a function, a symbol). */
export function jsonValue(v: unknown): string | undefined {
  if (typeof v === 'string') return PLAIN.test(v) ? `"${v}"` : JSON.stringify(v);
  if (v === null) return 'null';
  // A finite number's JSON is its shortest round-trip text, which String() also gives (-0 included: "0").
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v) as string | undefined;
}

/** A string, finite or other number, boolean or null: its JSON is never undefined and never that of an object or list. */
export const isScalar = (v: unknown): boolean => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * jsonValue for the values at positions 0..n-1 of records written one after another
 * (summaries by SUMMARY_KEYS): a value identical to the last one at its position gives
 * the last text again. The deliveries of one event, recorded together, share all but
 * three of a summary's fifteen values. Only scalars are remembered (an object may have
 * changed since).
 */
export class JsonMemo {
  private readonly values: unknown[] = [];
  private readonly texts: (string | undefined)[] = [];

  json(i: number, v: unknown): string | undefined {
    if (v === this.values[i] && isScalar(v)) return this.texts[i];
    const text = jsonValue(v);
    this.values[i] = v;
    this.texts[i] = text;
    return text;
  }
}

const memos = new Map<readonly string[], JsonMemo>();

/** The JsonMemo of records written with these keys. */
export function memoFor(keys: readonly string[]): JsonMemo {
  let m = memos.get(keys);
  if (!m) memos.set(keys, (m = new JsonMemo()));
  return m;
}
