// A delivery's base line (format in records.ts) written straight into bytes, like an
// attempt's (attempt-bytes.ts, line-bytes.ts says why): every delivery gets one when it
// is enqueued, and built as text (fifteen JSON values joined, then the line around them,
// then encoded into the writer's slab) it was the biggest allocation of a delivery's
// path (~1.3 KB of short-lived strings). The bytes are those of the text, exactly.
import { SUMMARY_KEYS, type DeliverySummary } from '../history-types.js';
import { lineBuffer } from './attempt-bytes.js';
import { extrasJson, hasKeys, isPlain } from './compact.js';
import { jsonValue } from './json-text.js';
import type { LineBytes } from './line-bytes.js';

/**
 * Writes compact.ts encodeSummary(d): the summary's values as a JSON array in
 * SUMMARY_KEYS order (plus {later keys}), or plain JSON when its keys do not start so
 * or a value is one JSON leaves out.
 */
export function writeSummary(out: LineBytes, d: DeliverySummary): void {
  if (isPlain(d) && hasKeys(d, SUMMARY_KEYS, false)) {
    const mark = out.n;
    if (writeValues(out, d)) {
      const extras = extrasJson(d, SUMMARY_KEYS.length);
      if (extras !== '') out.utf8(extras);
      out.byte(0x5d);
      return;
    }
    out.n = mark;
  }
  out.utf8(JSON.stringify(d));
}

/** `[` and the values at SUMMARY_KEYS, comma-separated; false (part written) at one JSON leaves out. */
function writeValues(out: LineBytes, d: DeliverySummary): boolean {
  out.byte(0x5b);
  for (let i = 0; i < SUMMARY_KEYS.length; i++) {
    if (i > 0) out.byte(0x2c);
    if (!writeValue(out, d[SUMMARY_KEYS[i]])) return false;
  }
  return true;
}

/** One value's JSON; false (nothing written) for one JSON leaves out. */
function writeValue(out: LineBytes, v: unknown): boolean {
  if (typeof v === 'string') out.str(v);
  else if (typeof v === 'number' && Number.isFinite(v)) out.num(v);
  else if (v === null) out.ascii('null');
  else if (typeof v === 'boolean') out.bool(v);
  else {
    const json = jsonValue(v);
    if (json === undefined) return false;
    out.utf8(json);
  }
  return true;
}

/**
 * A delivery's base record, `{"t":"d","s":<seq>,"c":1,"w":<summary>}` and a newline, in
 * the line buffer attempt lines share: good until the next line is encoded (the caller
 * copies it into the writer at once).
 */
export function deliveryBaseBytes(seq: number, d: DeliverySummary): LineBytes {
  const out = lineBuffer();
  writeBaseOpening(out, seq, d);
  out.ascii('}\n');
  return out;
}

/** `{"t":"d","s":<seq>,"c":1,"w":<summary>`: a base record up to its end or its attempts (records.ts carriedDeliveryLine). */
export function writeBaseOpening(out: LineBytes, seq: number, d: DeliverySummary): void {
  out.ascii('{"t":"d","s":');
  out.num(seq);
  out.ascii(',"c":1,"w":');
  writeSummary(out, d);
}

/** Whether the three values a fan-out's deliveries differ in are strings (a line from the template writes them as such). */
const ownStrings = (d: DeliverySummary): boolean =>
  typeof d.id === 'string' && typeof d.subscription_id === 'string' && typeof d.url === 'string';

/** The fields a fan-out's deliveries differ in (an event's deliveries to its subscriptions): their places in SUMMARY_KEYS. */
const OWN = [0, 3, 6] as const satisfies readonly number[];
const SHARED = SUMMARY_KEYS.filter((_, i) => !(OWN as readonly number[]).includes(i));

/**
 * The base lines of deliveries that differ only in their id, subscription and url (one
 * event's fan-out, outbox.ts): the first is written value by value and the bytes between
 * those three values are kept, so each next one writes its three strings and copies the
 * rest (the same bytes deliveryBaseBytes gives). `like` says whether a summary may.
 */
export class FanoutLines {
  /** The template's values at SHARED (copied: a caller may change its object later), or null: none. */
  private shared: unknown[] | null = null;
  /** The bytes after the id, after the subscription and after the url (to the next of the three or the line's end). */
  private readonly kept: Uint8Array[] = [];

  /** Whether the last line was written from the template. */
  copied = false;
  /** The index slot of the delivery whose line is the template (-1: none), for its row (insert-like.ts); kept by the caller. */
  slot = -1;

  /** Whether there is a template (the last line, when not copied, became it). */
  get ready(): boolean {
    return this.shared !== null;
  }

  /** Forgets the template: the next line is a first one. */
  reset(): this {
    this.shared = null;
    this.slot = -1;
    return this;
  }

  /** Whether `d` may be written from the template: a plain summary with exactly SUMMARY_KEYS, the template's values but its own three strings. */
  like(d: DeliverySummary): boolean {
    const t = this.shared;
    if (t === null || !isPlain(d) || !hasKeys(d, SUMMARY_KEYS, true) || !ownStrings(d)) return false;
    for (let i = 0; i < SHARED.length; i++) if (!Object.is(d[SHARED[i]], t[i])) return false;
    return true;
  }

  /**
   * The base line of `d`; from the template when like(d), else written whole (and, if
   * `more` lines may follow, kept as the template when it can be). `sameAsTemplate`: the
   * caller knows `d` is the object the template was written from, changed in its own three
   * values only (HistoryLog.recordFanout), so only those are checked.
   */
  line(seq: number, d: DeliverySummary, more: boolean, sameAsTemplate = false): LineBytes {
    this.copied = sameAsTemplate && this.shared !== null ? ownStrings(d) : this.like(d);
    if (!this.copied && !more) this.shared = null;
    if (!this.copied) return more ? this.first(seq, d) : deliveryBaseBytes(seq, d);
    const out = lineBuffer();
    const { kept } = this;
    out.ascii('{"t":"d","s":');
    out.num(seq);
    out.ascii(',"c":1,"w":[');
    out.str(d.id);
    out.bytes(kept[0]);
    out.str(d.subscription_id);
    out.bytes(kept[1]);
    out.str(d.url);
    out.bytes(kept[2]);
    return out;
  }

  private first(seq: number, d: DeliverySummary): LineBytes {
    this.shared = null;
    if (!isPlain(d) || !hasKeys(d, SUMMARY_KEYS, true)) return deliveryBaseBytes(seq, d);
    if (!ownStrings(d)) return deliveryBaseBytes(seq, d);
    const out = lineBuffer();
    out.ascii('{"t":"d","s":');
    out.num(seq);
    out.ascii(',"c":1,"w":[');
    // What follows each of the three strings up to the next (or the line's end) is kept (copied: out is reused).
    const { kept } = this;
    let from = 0;
    for (let i = 0; i < SUMMARY_KEYS.length; i++) {
      if (i > 0) out.byte(0x2c);
      const own = (OWN as readonly number[]).indexOf(i);
      if (own < 0) {
        if (!writeValue(out, d[SUMMARY_KEYS[i]])) return deliveryBaseBytes(seq, d);
        continue;
      }
      if (own > 0) kept[own - 1] = new Uint8Array(out.buf.subarray(from, out.n));
      out.str(d[SUMMARY_KEYS[i]] as string);
      from = out.n;
    }
    out.ascii(']}\n');
    kept[2] = new Uint8Array(out.buf.subarray(from, out.n));
    this.shared = SHARED.map((k) => d[k]);
    return out;
  }
}
