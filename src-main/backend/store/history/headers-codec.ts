// Compact headers for the history log's attempt lines (records.ts): a list of entries in
// the headers' own order, each either a number or a pair:
//   n >= 0         the (name, value) pair PAIRS[n]
//   -1             ("webhook-id", <the attempt's delivery id>)
//   [n, value]     (NAMES[n], value)
//   [name, value]  any other header
// The tables only ever grow at their end (a written index must keep its meaning).
// Decoding gives an object with the same own keys, in the same order, as the original.

import type { LineBytes } from './line-bytes.js';

const NAMES = [
  'content-type',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'server',
  'x-powered-by',
  'etag',
  'transfer-encoding',
  'vary',
  'cache-control',
  'x-request-id',
  'access-control-allow-origin',
  'content-encoding',
  'retry-after',
  'location',
];

const PAIRS: [string, string][] = [
  ['content-type', 'application/json'],
  ['user-agent', 'Countersign-Webhooks/0.1'],
  ['connection', 'keep-alive'],
  ['keep-alive', 'timeout=5'],
  ['connection', 'close'],
  ['content-type', 'application/json; charset=utf-8'],
  ['content-type', 'text/plain; charset=utf-8'],
  ['content-type', 'text/plain'],
  ['content-type', 'text/html; charset=utf-8'],
  ['transfer-encoding', 'chunked'],
  ['x-powered-by', 'Express'],
  ['content-length', '0'],
  ['content-length', '2'],
  ['content-length', '11'],
  ['server', 'nginx'],
  ['cache-control', 'no-cache'],
  ['vary', 'Accept-Encoding'],
];

const nameIndex = new Map(NAMES.map((n, i) => [n, i]));
/** name -> value -> index in PAIRS. */
const pairIndex = new Map<string, Map<string, number>>();
PAIRS.forEach(([n, v], i) => {
  const values = pairIndex.get(n) ?? new Map<string, number>();
  values.set(v, i);
  pairIndex.set(n, values);
});

/** True when every own value is a string (what the compact form can hold). */
export function isStringRecord(h: unknown): h is Record<string, string> {
  if (typeof h !== 'object' || h === null || Array.isArray(h) || (h as object).constructor !== Object) return false;
  for (const k in h) if (typeof (h as Record<string, unknown>)[k] !== 'string') return false;
  return true;
}

/** Writes the compact JSON of `h` (checked with isStringRecord first). */
export function writeHeaders(out: LineBytes, h: Record<string, string>, deliveryId: string): void {
  out.byte(0x5b);
  let first = true;
  for (const name in h) {
    const value = h[name];
    if (!first) out.byte(0x2c);
    first = false;
    if (name === 'webhook-id' && value === deliveryId) {
      out.ascii('-1');
      continue;
    }
    const pair = pairIndex.get(name)?.get(value);
    if (pair !== undefined) {
      out.num(pair);
      continue;
    }
    const n = nameIndex.get(name);
    out.byte(0x5b);
    if (n === undefined) out.str(name);
    else out.num(n);
    out.byte(0x2c);
    out.str(value);
    out.byte(0x5d);
  }
  out.byte(0x5d);
}

/** Sets an own property, also for the name "__proto__" (which plain assignment would not). */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/** Headers from their compact form; throws on anything it does not know (a damaged line). */
export function decodeHeaders(list: unknown, deliveryId: string): Record<string, string> {
  if (!Array.isArray(list)) throw new Error('headers: not a list');
  const out: Record<string, string> = {};
  for (const entry of list as unknown[]) {
    let name: string | undefined;
    let value: unknown;
    if (entry === -1) {
      name = 'webhook-id';
      value = deliveryId;
    } else if (typeof entry === 'number') {
      const pair = PAIRS[entry];
      if (pair) [name, value] = pair;
    } else if (Array.isArray(entry) && entry.length === 2) {
      name = typeof entry[0] === 'number' ? NAMES[entry[0]] : typeof entry[0] === 'string' ? entry[0] : undefined;
      value = entry[1];
    }
    if (name === undefined || typeof value !== 'string') throw new Error('headers: unknown entry');
    setOwn(out, name, value);
  }
  return out;
}
