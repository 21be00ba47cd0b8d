// The on-disk line format of the history log: one JSON object per line, newline-ended.
// The fixed prefixes let the startup scan pick out what the index needs without parsing
// the bulky parts (attempt headers and bodies, event bodies):
//   {"t":"e","s":<seq>,"n":<bytes of v>,"v":<event summary>,"b":<body string>}
//   {"t":"e","s":<seq>,"n":<bytes of v>,"v":<event summary>,"z":"<body, deflated, base64>"}
//                                        the shorter of the two (body-codec.ts)
//   {"t":"d","s":<seq>,"c":1,"w":<summary>}   a delivery's base record (its creation)
//   {"t":"d","s":<seq>,"c":1,"w":…,"a":[<attempt>…]}  a carried base (retention) with
//                                                     every attempt so far, in one line so a
//                                                     crash can never leave half a copy
//   {"t":"u","d":<delivery id>,"p":<patch>}  a later change of a known delivery: only the
//                                            fields that changed (compact.ts summaryPatch)
//   {"t":"d","w":<summary>}                  a later change a patch cannot say (a field went away)
//   {"t":"a","d":<delivery id>,"x":<compact attempt>}   or, for any other shape,
//   {"t":"a","d":<delivery id>,"v":<AttemptRecord>}
//   {"t":"a","d":<delivery id>,"x":…,"m":<mask>,"p":<patch>}  a compact attempt with the
//                                            change of its delivery it made (either part
//                                            may be left out: compact.ts attemptPatchTail)
// <summary> is a compact array (compact.ts encodeSummary) or a plain object, and so is an
// <event summary> (compact.ts encodeEventSummary; plain objects before). A compact
// attempt's request body may be a reference [offset, length] to the event line holding
// the same body in the same segment file: a segment is only ever deleted whole, and the
// event line comes before the attempt, so the reference lives exactly as long as the
// attempt. Retention's carried copies always hold the body itself.
// Lines written by earlier versions (base and upsert summaries in "v" as plain objects,
// attempts in "v", no "u" or "z" lines) are still read as they were.
// Inside a JSON string every `"` is escaped, so the byte sequence `,"v":` can only be
// the structural one that follows the prefix.
import type { AttemptRecord, DeliverySummary, EventSummary } from '../history-types.js';
import { bodyField, bodyOf } from './body-codec.js';
import {
  attemptPatch,
  attemptPatchTail,
  decodeAttempt,
  decodeEventSummary,
  decodeSummary,
  encodeEventSummary,
  encodeSummary,
  summaryPatch,
  type BodyRef,
} from './compact.js';
import { jsonValue } from './json-text.js';
import { changeBits, lineBuffer, writeAttempt, type LineChange } from './attempt-bytes.js';
import { writeBaseOpening } from './summary-bytes.js';

export type { BodyRef } from './compact.js';

/** An event's line; `field`: bodyField(body), if known. */
export function eventLine(seq: number, event: EventSummary, body: string, field = bodyField(body)): string {
  const v = encodeEventSummary(event);
  return `{"t":"e","s":${seq},"n":${Buffer.byteLength(v)},"v":${v}${field}}\n`;
}

/** A delivery's base record with every attempt so far (retention's carried copy). A base record alone: summary-bytes.ts deliveryBaseBytes. */
export function carriedDeliveryLine(seq: number, d: DeliverySummary, attempts: AttemptRecord[]): string {
  const out = lineBuffer();
  writeBaseOpening(out, seq, d);
  out.ascii(',"a":[');
  attempts.forEach((a, i) => {
    if (i > 0) out.byte(0x2c);
    if (a.delivery_id !== d.id || !writeAttempt(out, a)) out.utf8(JSON.stringify(a));
  });
  out.ascii(']}\n');
  return out.text();
}

/** A later change of a delivery: the whole summary. */
export function deliveryLine(d: DeliverySummary): string {
  return `{"t":"d","w":${encodeSummary(d)}}\n`;
}

/** A later change of a delivery as a patch (compact.ts summaryPatch). */
export function patchLine(id: string, patch: string): string {
  return `{"t":"u","d":${jsonValue(id)},"p":${patch}}\n`;
}

/** The line recording `d` as the new summary of a delivery whose summary was `old` ('' if nothing changed). */
export function summaryChangeLine(old: DeliverySummary, d: DeliverySummary): string {
  const patch = summaryPatch(old, d);
  return patch === undefined ? deliveryLine(d) : patch === '{}' ? '' : patchLine(d.id, patch);
}

/**
 * How the change from `old` to `d` that attempt `a` made (if any) is written: on the
 * attempt's own line (`patch`) when it can be, else as a line of its own (`after`, or '').
 */
export function attemptChange(
  a: AttemptRecord | undefined,
  old: DeliverySummary,
  d: DeliverySummary,
): { patch: LineChange; after: string } {
  const bits = a ? changeBits(a, old, d) : -1;
  if (bits >= 0) return { patch: { bits, d }, after: '' };
  const patch = a && attemptPatchTail(a, old, d);
  return patch === undefined ? { patch: '', after: summaryChangeLine(old, d) } : { patch, after: '' };
}

/** The body of an event line, or undefined if the line is damaged. */
export function parseEventBody(line: string): string | undefined {
  try {
    const rec = JSON.parse(line) as { t?: string; b?: unknown; z?: unknown };
    return rec.t === 'e' ? bodyOf(rec) : undefined;
  } catch {
    return undefined;
  }
}

/** An attempt read back; `ref`: its request body is that event line's (same segment), still to be read. */
export interface ParsedAttempt {
  attempt: AttemptRecord;
  ref?: BodyRef;
}

/** An attempt from its own line, or item `item` of a carried delivery line. */
export function parseAttempt(line: string, item?: number): ParsedAttempt | undefined {
  try {
    const rec = JSON.parse(line) as { t?: string; d?: unknown; v?: unknown; w?: unknown; x?: unknown; a?: unknown[] };
    if (item === undefined) {
      if (rec.t !== 'a' || typeof rec.d !== 'string') return undefined;
      if (rec.x !== undefined) return decodeAttempt(rec.x, rec.d);
      return isObject(rec.v) ? { attempt: rec.v as unknown as AttemptRecord } : undefined;
    }
    if (rec.t !== 'd' || !Array.isArray(rec.a)) return undefined;
    const a = rec.a[item];
    if (Array.isArray(a)) {
      const d = decodeSummary(rec.w !== undefined ? rec.w : rec.v);
      const parsed = d ? decodeAttempt(a, d.id) : undefined;
      return parsed && !parsed.ref ? parsed : undefined; // carried copies hold their bodies
    }
    return isObject(a) ? { attempt: a as unknown as AttemptRecord } : undefined;
  } catch {
    return undefined;
  }
}

export type ScannedRecord =
  | { kind: 'e'; seq: number; v: EventSummary }
  /** `carried`: how many attempts a carried base embeds; undefined for a creation. */
  | { kind: 'd'; base: true; seq: number; carried: number | undefined; v: DeliverySummary }
  | { kind: 'd'; base: false; v: DeliverySummary }
  /** A patch of a known delivery's summary: apply with compact.ts applyPatch (ignored for an unknown one). */
  | { kind: 'u'; deliveryId: string; patch: Record<string, unknown> }
  /** `patch`: the change of its delivery that the line carries too (apply after adding the attempt). */
  | { kind: 'a'; deliveryId: string; patch?: Record<string, unknown> };

const PREFIX = Buffer.from('{"t":"');
const V_KEY = Buffer.from(',"v":');
const ATTEMPT_PREFIX = Buffer.from('{"t":"a","d":');
const PATCH_PREFIX = Buffer.from('{"t":"u","d":');
const BASE_PREFIX = Buffer.from('{"t":"d","s":');
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON string literal starting at buf[from] (a quote), parsed; undefined if there is none before `end`. */
function stringAt(buf: Buffer, from: number, end: number): string | undefined {
  if (buf[from] !== QUOTE) return undefined;
  for (let i = from + 1; i < end; i++) {
    const c = buf[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) {
      const s: unknown = JSON.parse(buf.toString('utf8', from, i + 1));
      return typeof s === 'string' ? s : undefined;
    }
  }
  return undefined;
}

function scanEvent(buf: Buffer, start: number, end: number): ScannedRecord | null {
  const vAt = buf.indexOf(V_KEY, start);
  if (vAt < 0 || vAt >= end) return null;
  const head = JSON.parse(buf.toString('utf8', start, vAt) + '}') as { s?: unknown; n?: unknown };
  if (typeof head.s !== 'number' || typeof head.n !== 'number') return null;
  const from = vAt + V_KEY.length;
  if (from + head.n > end) return null;
  const v = decodeEventSummary(JSON.parse(buf.toString('utf8', from, from + head.n)));
  return v === undefined ? null : { kind: 'e', seq: head.s, v };
}

function scanAttempt(buf: Buffer, start: number, end: number, id: string): ScannedRecord | null {
  const rec = JSON.parse(buf.toString('utf8', start, end)) as { d?: unknown; x?: unknown; m?: unknown; p?: unknown };
  if (rec.d !== id) return null;
  if (rec.x === undefined) return rec.m === undefined && rec.p === undefined ? { kind: 'a', deliveryId: id } : null;
  const patch = attemptPatch(decodeAttempt(rec.x, id).attempt, rec.m, rec.p);
  return patch ? { kind: 'a', deliveryId: id, patch } : { kind: 'a', deliveryId: id };
}

function scanDelivery(rec: Record<string, unknown>): ScannedRecord | null {
  const v = decodeSummary(rec.w !== undefined ? rec.w : rec.v);
  if (!v || typeof v.id !== 'string') return null;
  if (rec.c === 1) {
    if (typeof rec.s !== 'number') return null;
    const carried = Array.isArray(rec.a) ? rec.a.length : undefined;
    return { kind: 'd', base: true, seq: rec.s, carried, v };
  }
  return { kind: 'd', base: false, v };
}

/** Whether buf[start, end) starts with `prefix` (a few bytes: compared here rather than through Buffer.compare's checks). */
function startsWith(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix[i]) return false;
  return true;
}

/**
 * Whether the line buf[start, end) may be about a delivery not in `own` (or is damaged):
 * an attempt or patch of another delivery, or any later whole summary; never an event or
 * a delivery's base record. Reads only the delivery id at the head of the line.
 */
export function aboutOtherDelivery(buf: Buffer, start: number, end: number, own: { has(id: string): boolean }): boolean {
  if (!startsWith(buf, start, end, PREFIX)) return true; // damaged: the scan counts it
  const kind = buf[start + 6];
  const prefix = kind === 0x61 ? ATTEMPT_PREFIX : kind === 0x75 ? PATCH_PREFIX : undefined; // "a" or "u"
  if (prefix && startsWith(buf, start, end, prefix)) {
    const id = idAt(buf, start + prefix.length, end);
    return id === undefined || !own.has(id);
  }
  if (startsWith(buf, start, end, BASE_PREFIX)) return false; // a base record: a row of the segment
  return kind !== 0x65; // an event line: no; a later whole summary ("d") or anything else: yes
}

/**
 * stringAt for the id at the head of a line, undefined where stringAt finds none or
 * throws: read straight from the bytes when they are plain ASCII with nothing escaped
 * (every id this service writes), which then is exactly the string JSON.parse gives.
 */
function idAt(buf: Buffer, from: number, end: number): string | undefined {
  if (buf[from] !== QUOTE) return undefined;
  for (let i = from + 1; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) return buf.toString('latin1', from + 1, i);
    if (c === BACKSLASH || c < 0x20 || c >= 0x80) break;
  }
  try {
    return stringAt(buf, from, end);
  } catch {
    return undefined; // damaged: the scan counts it
  }
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
      const id = stringAt(buf, start + ATTEMPT_PREFIX.length, end);
      if (id === undefined) return null;
      // `…,"x":[…]}`: an attempt alone, known by its id; else it may carry a patch.
      return buf[end - 2] === CLOSE_BRACKET ? { kind: 'a', deliveryId: id } : scanAttempt(buf, start, end, id);
    }
    if (kind === 'e') return scanEvent(buf, start, end);
    if (kind === 'd' || kind === 'u') {
      const rec: unknown = JSON.parse(buf.toString('utf8', start, end));
      if (!isObject(rec)) return null;
      if (kind === 'd') return scanDelivery(rec);
      return typeof rec.d === 'string' && isObject(rec.p) ? { kind: 'u', deliveryId: rec.d, patch: rec.p } : null;
    }
  } catch {
    return null;
  }
  return null;
}
