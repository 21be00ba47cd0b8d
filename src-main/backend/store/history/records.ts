// The on-disk line format of the history log: one JSON object per line, newline-ended.
// The fixed prefixes let the startup scan pick out what the index needs without parsing
// the bulky parts (attempt headers and bodies, event bodies):
//   {"t":"e","s":<seq>,"n":<bytes of v>,"v":<EventSummary>,"b":<body string>}
//   {"t":"d","s":<seq>,"c":1,"v":<DeliverySummary>}   a delivery's base record (its creation)
//   {"t":"d","s":<seq>,"c":1,"v":…,"a":[<AttemptRecord>…]}  a carried base (retention) with
//                                                     every attempt so far, in one line so a
//                                                     crash can never leave half a copy
//   {"t":"d","v":<DeliverySummary>}                    a later upsert of a known delivery
//   {"t":"a","d":<delivery id>,"v":<AttemptRecord>}
// Inside a JSON string every `"` is escaped, so the byte sequence `,"v":` can only be
// the structural one that follows the prefix.
import type { AttemptRecord, DeliverySummary, EventSummary } from '../history-types.js';

export function eventLine(seq: number, event: EventSummary, body: string): string {
  const v = JSON.stringify(event);
  return `{"t":"e","s":${seq},"n":${Buffer.byteLength(v)},"v":${v},"b":${JSON.stringify(body)}}\n`;
}

export function deliveryBaseLine(seq: number, d: DeliverySummary): string {
  return `{"t":"d","s":${seq},"c":1,"v":${JSON.stringify(d)}}\n`;
}

export function carriedDeliveryLine(seq: number, d: DeliverySummary, attempts: AttemptRecord[]): string {
  return `{"t":"d","s":${seq},"c":1,"v":${JSON.stringify(d)},"a":${JSON.stringify(attempts)}}\n`;
}

export function deliveryLine(d: DeliverySummary): string {
  return `{"t":"d","v":${JSON.stringify(d)}}\n`;
}

/**
 * An attempt record as one line. Records of exactly AttemptRecord's shape (the engine's)
 * are written field by field, the same JSON as JSON.stringify gives (byte for byte when
 * the keys come in the interface's order, as the engine's do), reusing the request
 * body's string literal (see jsonString); anything else (an imported record, which may
 * carry other fields) is serialised as given.
 */
export function attemptLine(a: AttemptRecord): string {
  const id = JSON.stringify(a.delivery_id);
  return `{"t":"a","d":${id},"v":${isStandardAttempt(a) ? standardAttemptJson(a, id) : JSON.stringify(a)}}\n`;
}

function standardAttemptJson(a: AttemptRecord, id: string): string {
  const req = a.request;
  const res = a.response;
  const response =
    res === null
      ? 'null'
      : `{"status":${res.status},"headers":${JSON.stringify(res.headers)},"body":${jsonString(res.body)},"truncated":${res.truncated}}`;
  return (
    `{"delivery_id":${id},"subscription_id":${JSON.stringify(a.subscription_id)},"attempt":${a.attempt},"started_at":${JSON.stringify(a.started_at)},` +
    `"duration_ms":${a.duration_ms},"request":{"method":"POST","url":${JSON.stringify(req.url)},"headers":${JSON.stringify(req.headers)},"body":${jsonString(req.body)}},` +
    `"response":${response},"error":${a.error === null ? 'null' : JSON.stringify(a.error)},"succeeded":${a.succeeded},"next_attempt_at":${a.next_attempt_at},` +
    `"rule":${JSON.stringify(a.rule)},"rule_detail":${JSON.stringify(a.rule_detail)}${a.slowed_down ? ',"slowed_down":true' : ''}}`
  );
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStrMap = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && (v as object).constructor === Object;

function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** Exactly the fields of AttemptRecord, in its order, with the types the template above writes. */
export function isStandardAttempt(a: AttemptRecord): boolean {
  const req = a.request as AttemptRecord['request'] | null;
  const res = a.response;
  return (
    typeof a === 'object' &&
    a.constructor === Object &&
    keyCount(a) === (a.slowed_down === true ? 13 : 12) &&
    typeof a.rule === 'string' &&
    typeof a.rule_detail === 'string' &&
    typeof a.delivery_id === 'string' &&
    typeof a.subscription_id === 'string' &&
    isNum(a.attempt) &&
    typeof a.started_at === 'string' &&
    isNum(a.duration_ms) &&
    typeof req === 'object' &&
    req !== null &&
    req.constructor === Object &&
    keyCount(req) === 4 &&
    req.method === 'POST' &&
    typeof req.url === 'string' &&
    isStrMap(req.headers) &&
    typeof req.body === 'string' &&
    (res === null ||
      (typeof res === 'object' &&
        res.constructor === Object &&
        keyCount(res) === 4 &&
        isNum(res.status) &&
        isStrMap(res.headers) &&
        typeof res.body === 'string' &&
        typeof res.truncated === 'boolean')) &&
    (a.error === null || typeof a.error === 'string') &&
    typeof a.succeeded === 'boolean' &&
    (a.next_attempt_at === null || isNum(a.next_attempt_at))
  );
}

/**
 * JSON string literals of recent long strings. One event's body goes to every
 * subscription, and escaping it again for each attempt (~1 KB of JSON text full of
 * quotes) cost more than the rest of the line. Bounded: a few dozen entries.
 */
const literals = new Map<string, string>();
const LITERAL_MIN_CHARS = 128;
const LITERAL_ENTRIES = 32;

function jsonString(s: string): string {
  if (s.length < LITERAL_MIN_CHARS) return JSON.stringify(s);
  let lit = literals.get(s);
  if (lit === undefined) {
    if (literals.size >= LITERAL_ENTRIES) literals.clear();
    lit = JSON.stringify(s);
    literals.set(s, lit);
  }
  return lit;
}

/** The body of an event line, or undefined if the line is damaged. */
export function parseEventBody(line: string): string | undefined {
  try {
    const rec = JSON.parse(line) as { t?: string; b?: unknown };
    return rec.t === 'e' && typeof rec.b === 'string' ? rec.b : undefined;
  } catch {
    return undefined;
  }
}

/** An attempt from its own line, or item `item` of a carried delivery line. */
export function parseAttempt(line: string, item?: number): AttemptRecord | undefined {
  try {
    const rec = JSON.parse(line) as { t?: string; v?: AttemptRecord; a?: AttemptRecord[] };
    const a = item === undefined ? (rec.t === 'a' ? rec.v : undefined) : rec.t === 'd' && Array.isArray(rec.a) ? rec.a[item] : undefined;
    return a && typeof a === 'object' ? a : undefined;
  } catch {
    return undefined;
  }
}

export type ScannedRecord =
  | { kind: 'e'; seq: number; v: EventSummary }
  /** `carried`: how many attempts a carried base embeds; undefined for a creation. */
  | { kind: 'd'; base: true; seq: number; carried: number | undefined; v: DeliverySummary }
  | { kind: 'd'; base: false; v: DeliverySummary }
  | { kind: 'a'; deliveryId: string };

const PREFIX = Buffer.from('{"t":"');
const V_KEY = Buffer.from(',"v":');
const ATTEMPT_PREFIX = Buffer.from('{"t":"a","d":');
const CLOSE_BRACE = 0x7d;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads what the index needs from the line buf[start, end) (no newline). Returns null
 * for a damaged or unknown line: the caller skips it rather than refusing to start.
 */
export function scanLine(buf: Buffer, start: number, end: number): ScannedRecord | null {
  if (end - start < 12 || buf[end - 1] !== CLOSE_BRACE) return null;
  if (buf.compare(PREFIX, 0, PREFIX.length, start, start + PREFIX.length) !== 0) return null;
  const kind = String.fromCharCode(buf[start + 6]);
  try {
    if (kind === 'a') {
      if (buf.compare(ATTEMPT_PREFIX, 0, ATTEMPT_PREFIX.length, start, start + ATTEMPT_PREFIX.length) !== 0) return null;
      const vAt = buf.indexOf(V_KEY, start);
      if (vAt < 0 || vAt >= end) return null;
      const id: unknown = JSON.parse(buf.toString('utf8', start + ATTEMPT_PREFIX.length, vAt));
      return typeof id === 'string' ? { kind: 'a', deliveryId: id } : null;
    }
    if (kind === 'e') {
      const vAt = buf.indexOf(V_KEY, start);
      if (vAt < 0 || vAt >= end) return null;
      const head = JSON.parse(buf.toString('utf8', start, vAt) + '}') as { s?: unknown; n?: unknown };
      if (typeof head.s !== 'number' || typeof head.n !== 'number') return null;
      const from = vAt + V_KEY.length;
      if (from + head.n > end) return null;
      const v: unknown = JSON.parse(buf.toString('utf8', from, from + head.n));
      if (!isObject(v) || typeof v.id !== 'string') return null;
      return { kind: 'e', seq: head.s, v: v as unknown as EventSummary };
    }
    if (kind === 'd') {
      const rec: unknown = JSON.parse(buf.toString('utf8', start, end));
      if (!isObject(rec) || !isObject(rec.v) || typeof rec.v.id !== 'string') return null;
      const v = rec.v as unknown as DeliverySummary;
      if (rec.c === 1) {
        if (typeof rec.s !== 'number') return null;
        const carried = Array.isArray(rec.a) ? rec.a.length : undefined;
        return { kind: 'd', base: true, seq: rec.s, carried, v };
      }
      return { kind: 'd', base: false, v };
    }
  } catch {
    return null;
  }
  return null;
}
