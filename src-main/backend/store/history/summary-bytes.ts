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
    const v: unknown = d[SUMMARY_KEYS[i]];
    if (typeof v === 'string') out.str(v);
    else if (typeof v === 'number' && Number.isFinite(v)) out.num(v);
    else if (v === null) out.ascii('null');
    else if (typeof v === 'boolean') out.bool(v);
    else {
      const json = jsonValue(v);
      if (json === undefined) return false;
      out.utf8(json);
    }
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
