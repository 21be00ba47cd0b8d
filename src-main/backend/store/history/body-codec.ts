// Event bodies in the history log (records.ts): kept as a JSON string ("b"), or, when
// that is longer, raw-deflated with the preset dictionary below and base64-encoded
// ("z"). The dictionary is part of the format: "z" always means this exact dictionary
// (a different one would need a new key). Inflating gives back the exact bytes.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** Text a webhook body of this service usually repeats (the last bytes are the likeliest matches). */
const DICTIONARY = Buffer.from(
  '"webhook.test","webhook.disabled","subscription":{"public_id":"wh_","reason":"' +
    '"document.reminded","document.expired","document.voided","document.declined","document.recipient_completed","document.viewed","document.completed","document.sent","document.created",' +
    '"metadata":{},"role":"signer","status":"pending","status":"viewed","status":"completed","status":"declined",' +
    '"status":"SENT","status":"COMPLETED","status":"DECLINED","status":"EXPIRED","status":"VOIDED",' +
    '{"id":"evt_","type":"document.updated","timestamp":"2026-11-26T00:00:00.000Z","data":{"document":{"public_id":"doc_","title":"","status":"DRAFT",' +
    '"recipients":[{"public_id":"rcp_","name":"","email":"@example.com","role":"signer","status":"pending","completed_at":null}],' +
    '"metadata":{},"url":"http://127.0.0.1:4010/app/documents?d=doc_","created_at":"2026-11-26T00:00:00.000Z","updated_at":"2026-11-26T00:00:00.000Z"}}}',
);

/** Bodies shorter than this are kept as they are (deflate would not pay off). */
const MIN_BYTES = 200;

/** The `,"b":…` or `,"z":…` part of an event line for `body`, whichever is shorter. */
export function bodyField(body: string): string {
  const literal = JSON.stringify(body);
  // UTF-8 cannot hold a lone surrogate, which the JSON string keeps exactly.
  if (body.length < MIN_BYTES || !(body as unknown as { isWellFormed(): boolean }).isWellFormed()) return `,"b":${literal}`;
  const packed = deflateRawSync(Buffer.from(body, 'utf8'), { dictionary: DICTIONARY, level: 1, memLevel: 5, windowBits: 12 }).toString(
    'base64',
  );
  return packed.length + 2 < literal.length ? `,"z":"${packed}"` : `,"b":${literal}`;
}

/** The body of a parsed event line, or undefined if it holds none it can read. */
export function bodyOf(rec: { b?: unknown; z?: unknown }): string | undefined {
  if (typeof rec.b === 'string') return rec.b;
  if (typeof rec.z === 'string') return inflateRawSync(Buffer.from(rec.z, 'base64'), { dictionary: DICTIONARY }).toString('utf8');
  return undefined;
}
