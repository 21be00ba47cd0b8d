// An attempt's line (format in records.ts, its compact array in compact.ts) written
// straight into bytes: the same bytes its text has in UTF-8, without building the text
// first (line-bytes.ts says why).
import { SUMMARY_KEYS, type AttemptRecord, type DeliverySummary } from '../history-types.js';
import { ATTEMPT_KEYS, canCompactAttempt, extrasJson, fromAttempt, isPlain, type BodyRef } from './compact.js';
import { writeHeaders } from './headers-codec.js';
import { LineBytes } from './line-bytes.js';
import { jsonValue } from './json-text.js';

/**
 * Writes the compact JSON array of an attempt (compact.ts decodeAttempt reads it back):
 *   [subscription_id, attempt, started_at, duration_ms, url, request headers,
 *    request body | [offset, length] of the event line holding it,
 *    null | [status, headers, body, truncated], error, succeeded, next_attempt_at,
 *    rule, rule_detail, {later keys}?]
 * or nothing, returning false, if it cannot be written compactly. The delivery id is the
 * line's "d". `compact`: canCompactAttempt(a) is known to hold.
 */
export function writeAttempt(out: LineBytes, a: AttemptRecord, ref?: BodyRef, compact = false): boolean {
  if (!compact && !canCompactAttempt(a)) return false;
  const id = a.delivery_id;
  const req = a.request;
  const res = a.response;
  out.byte(0x5b);
  out.str(a.subscription_id);
  out.byte(0x2c);
  out.num(a.attempt);
  out.byte(0x2c);
  out.str(a.started_at);
  out.byte(0x2c);
  out.num(a.duration_ms);
  out.byte(0x2c);
  out.str(req.url);
  out.byte(0x2c);
  writeHeaders(out, req.headers, id);
  out.byte(0x2c);
  if (ref) {
    out.byte(0x5b);
    out.num(ref.off);
    out.byte(0x2c);
    out.num(ref.len);
    out.byte(0x5d);
  } else writeBody(out, req.body);
  out.byte(0x2c);
  if (res === null) out.ascii('null');
  else {
    out.byte(0x5b);
    out.num(res.status);
    out.byte(0x2c);
    writeHeaders(out, res.headers, id);
    out.byte(0x2c);
    out.str(res.body);
    out.byte(0x2c);
    out.bool(res.truncated);
    out.byte(0x5d);
  }
  out.byte(0x2c);
  out.strOrNull(a.error);
  out.byte(0x2c);
  out.bool(a.succeeded);
  out.byte(0x2c);
  out.numOrNull(a.next_attempt_at);
  out.byte(0x2c);
  out.str(a.rule as string);
  out.byte(0x2c);
  out.str(a.rule_detail as string);
  const extras = extrasJson(a, ATTEMPT_KEYS.length);
  if (extras !== '') out.utf8(extras);
  out.byte(0x5d);
  return true;
}

/** Where attempt lines are encoded, one after another (attemptBytes). */
const shared = new LineBytes();

/** The shared line buffer, emptied (for a line holding attempts: carried delivery lines). */
export const lineBuffer = (): LineBytes => shared.reset();

/**
 * An attempt record as one line: compact when it decodes back exactly (compact.ts), its
 * request body as `ref` when given (the caller vouches that the event line there, in the
 * segment this line goes to, holds the same body), else as plain JSON. `patch`: the
 * change of its delivery that goes with it (compact.ts attemptPatchTail's text, or
 * changeBits' answer; only for an attempt that has a compact line). Encoded into a buffer shared by every call: its bytes
 * are good until the next call (history-log.ts copies them into the writer at once).
 */
export function attemptBytes(a: AttemptRecord, ref?: BodyRef, patch: LineChange = ''): LineBytes {
  const out = shared.reset();
  out.ascii('{"t":"a","d":');
  const id: unknown = a.delivery_id;
  if (typeof id === 'string') out.str(id);
  else out.utf8(String(jsonValue(id)));
  const mark = out.n;
  out.ascii(',"x":');
  // Bits came from changeBits, which checked the attempt is compact.
  if (writeAttempt(out, a, ref, typeof patch !== 'string')) {
    if (typeof patch !== 'string') writeChange(out, patch);
    else if (patch !== '') out.utf8(patch);
  } else {
    out.n = mark;
    out.ascii(',"v":');
    out.utf8(JSON.stringify(a));
  }
  out.ascii('}\n');
  return out;
}

/** attemptBytes as a string. */
export const attemptLine = (a: AttemptRecord, ref?: BodyRef, patch: LineChange = ''): string => attemptBytes(a, ref, patch).text();

/**
 * JSON string literals of recent long strings. One event's body goes to every
 * subscription, and escaping it again for each attempt (~1 KB of JSON text full of
 * quotes) cost more than the rest of the line. Bounded: a few dozen entries.
 */
const literals = new Map<string, string>();
const LITERAL_MIN_CHARS = 128;
const LITERAL_ENTRIES = 32;

export function writeBody(out: LineBytes, s: string): void {
  if (s.length < LITERAL_MIN_CHARS) return out.str(s);
  let lit = literals.get(s);
  if (lit === undefined) {
    if (literals.size >= LITERAL_ENTRIES) literals.clear();
    lit = JSON.stringify(s);
    literals.set(s, lit);
  }
  out.utf8(lit);
}

/** The change of a delivery an attempt line carries: attemptPatchTail's text, or changeBits' bits with the new summary (for that same attempt only). */
export type LineChange = string | { bits: number; d: DeliverySummary };

/** A string, a finite number, a boolean or null: two such values have the same JSON exactly when they are ===. */
const simple = (v: unknown): boolean =>
  typeof v === 'string' || v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * compact.ts attemptPatchTail for the usual change (both summaries with exactly the
 * SUMMARY_KEYS, every value involved simple), as bits: bit i (i < 16) if field i takes
 * the attempt's value ("m"), bit 16 + i if the field is written in "p"; -1 otherwise
 * (attemptPatchTail says it). No text is made: writeChange writes the same bytes.
 */
export function changeBits(a: AttemptRecord, old: DeliverySummary, d: DeliverySummary): number {
  // The old summary's values read in a for-in over its own keys (V8 reads those by the
  // key's place, not by name) into `oldValues` first.
  if (!isPlain(old)) return -1;
  let i = 0;
  for (const k in old) {
    if (k !== SUMMARY_KEYS[i]) return -1;
    const was: unknown = old[k as keyof DeliverySummary];
    if (!simple(was)) return -1;
    oldValues[i++] = was;
  }
  return i === FIELDS ? changeBitsFrom(a, d, sameAsOld) : -1;
}

/** Whether `v` is the old summary's value of field `i` (SUMMARY_KEYS index); every old value is simple. */
export type SameAsOld = (i: number, v: unknown) => boolean;

/**
 * changeBits against an old summary of exactly the SUMMARY_KEYS with simple values, told
 * field by field by `same` (the history index compares its stored row in place:
 * row-compare.ts; no old summary is made).
 */
export function changeBitsFrom(a: AttemptRecord, d: DeliverySummary, same: SameAsOld): number {
  if (!isPlain(d) || !canCompactAttempt(a)) return -1;
  let bits = 0;
  let i = 0;
  for (const k in d) {
    if (k !== SUMMARY_KEYS[i]) return -1;
    const v: unknown = d[k as keyof DeliverySummary];
    if (!simple(v)) return -1;
    if (!same(i, v)) {
      const value = fromAttempt[i];
      const x = value ? value(a) : undefined;
      if (value && !simple(x)) return -1;
      bits |= x === v ? 1 << i : 1 << (16 + i);
    }
    i++;
  }
  return i === FIELDS ? bits : -1;
}

/** Whether changeBits' bits leave the delivery's event_id (SUMMARY_KEYS index 1) as it was. */
export const keepsEventId = (bits: number): boolean => (bits & ((1 << 1) | (1 << 17))) === 0;

const FIELDS = SUMMARY_KEYS.length;
/** changeBits' old values, reused call to call. */
const oldValues: unknown[] = new Array<unknown>(FIELDS).fill(null);
const sameAsOld: SameAsOld = (i, v) => v === oldValues[i];

/** Writes `,"m":<mask>` and `,"p":{…}` as attemptPatchTail does, from changeBits' bits. */
function writeChange(out: LineBytes, { bits, d }: { bits: number; d: DeliverySummary }): void {
  if ((bits & 0xffff) !== 0) {
    out.ascii(',"m":');
    out.num(bits & 0xffff);
  }
  const rest = bits >>> 16;
  if (rest === 0) return;
  out.ascii(',"p":{');
  let first = true;
  for (let i = 0; i < SUMMARY_KEYS.length; i++) {
    if ((rest & (1 << i)) === 0) continue;
    if (!first) out.byte(0x2c);
    first = false;
    out.byte(0x22);
    out.num(i);
    out.ascii('":');
    const v = d[SUMMARY_KEYS[i]] as string | number | boolean | null;
    if (typeof v === 'string') out.str(v);
    else if (typeof v === 'number') out.num(v);
    else if (v === null) out.ascii('null');
    else out.bool(v);
  }
  out.byte(0x7d);
}
