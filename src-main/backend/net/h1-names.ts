// Header names and values the delivery client's response parser (h1-parser.ts) has read,
// found again by their bytes. An endpoint answers every request with the same few
// header lines (only a date changes, once a second): a name seen before is neither made
// a string again nor checked and lower-cased again, and a value the same as the last one
// under that name is the same string, so a response's head makes hardly any string.
// Bounded: SLOTS entries, each keeping at most one value of at most VALUE_MAX characters.
import { fail } from './h1-fields.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SLOTS = 256;
const VALUE_MAX = 256;

/** A header name as sent, its lower-case key, and the last value read under it. */
export class SeenName {
  value = '';
  constructor(
    readonly raw: string,
    readonly key: string,
  ) {}
}

const seen: (SeenName | undefined)[] = new Array<SeenName | undefined>(SLOTS).fill(undefined);

/** Whether buf[from, to) holds exactly the characters of `s` (each below 0x100). */
function sameBytes(buf: Buffer, from: number, to: number, s: string): boolean {
  if (to - from !== s.length) return false;
  for (let i = 0; i < s.length; i++) if (buf[from + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** buf[from, to) as latin1 text (Buffer#toString's own call, without its argument handling). */
const latin1 = (buf: Buffer, from: number, to: number): string =>
  (buf as Buffer & { latin1Slice(from: number, to: number): string }).latin1Slice(from, to);

/** The header name buf[p, end) (p < end), checked to be a token (else H1ParseError). */
export function nameAt(buf: Buffer, p: number, end: number): SeenName {
  const n = end - p;
  const i = (n * 131 + buf[p] * 31 + buf[p + (n >> 1)] * 7 + buf[end - 1]) & (SLOTS - 1);
  const hit = seen[i];
  if (hit !== undefined && sameBytes(buf, p, end, hit.raw)) return hit;
  const raw = latin1(buf, p, end);
  if (!TOKEN.test(raw)) fail('bad header name');
  const name = new SeenName(raw, raw.toLowerCase());
  seen[i] = name;
  return name;
}

/** The value buf[a, b) read under `name` as text: the same string as last time when the bytes are the same. */
export function valueAt(name: SeenName, buf: Buffer, a: number, b: number): string {
  if (sameBytes(buf, a, b, name.value)) return name.value;
  const v = latin1(buf, a, b);
  if (b - a <= VALUE_MAX) name.value = v;
  return v;
}
