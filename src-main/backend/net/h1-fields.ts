// What the delivery client's response parser (h1-parser.ts) reads from the header
// values that frame a response or its connection, and how it refuses a response.

export class H1ParseError extends Error {
  override name = 'H1ParseError';
  readonly code = 'HPE_INVALID';
}

export const fail = (why: string): never => {
  throw new H1ParseError(`invalid HTTP response: ${why}`);
};

/** `s` without leading and trailing spaces and tabs (String#trim would also take latin1's no-break space). */
function trimOws(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s.charCodeAt(a) === 32 || s.charCodeAt(a) === 9)) a++;
  while (b > a && (s.charCodeAt(b - 1) === 32 || s.charCodeAt(b - 1) === 9)) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

// The last value each reader read and what it made of it: an endpoint sends the same
// values answer after answer (h1-names.ts gives them as the same strings).
// (None at first: an empty value is read like any other.)
let lastLength: { value: string | undefined; n: number } = { value: undefined, n: 0 };
let lastTokens: { value: string | undefined; t: number } = { value: undefined, t: 0 };
let lastHint: { value: string | undefined; ms: number } = { value: undefined, ms: -1 };

/** A content-length value, given the one read before (-1: none). */
export function contentLength(value: string, before: number): number {
  if (value !== lastLength.value) {
    if (!/^\d{1,15}$/.test(value)) fail('bad content-length');
    lastLength = { value, n: Number(value) };
  }
  const n = lastLength.n;
  if (before !== -1 && before !== n) fail('conflicting content-length');
  return n;
}

/** Whether a transfer-encoding value ends with chunked (refused anywhere else). */
export function chunkedLast(value: string): boolean {
  const codings = value.toLowerCase().split(',');
  for (let i = 0; i < codings.length - 1; i++) if (trimOws(codings[i]) === 'chunked') fail('chunked is not the last coding');
  return trimOws(codings[codings.length - 1]) === 'chunked';
}

export const CLOSE = 1;
export const KEEP_ALIVE = 2;

/** The connection header's close (CLOSE) and keep-alive (KEEP_ALIVE) tokens. */
export function connectionTokens(value: string): number {
  if (value === lastTokens.value) return lastTokens.t;
  let out = 0;
  for (const token of value.toLowerCase().split(',')) {
    const t = trimOws(token);
    if (t === 'close') out |= CLOSE;
    else if (t === 'keep-alive') out |= KEEP_ALIVE;
  }
  lastTokens = { value, t: out };
  return out;
}

/** The server's keep-alive timeout hint (`keep-alive: timeout=N`), in ms, or `otherwise` when it gives none. */
export function keepAliveHint(value: string, otherwise: number): number {
  if (value !== lastHint.value) {
    const m = /(?:^|[\s,])timeout\s*=\s*(\d{1,6})/i.exec(value);
    lastHint = { value, ms: m ? Number(m[1]) * 1000 : -1 };
  }
  return lastHint.ms >= 0 ? lastHint.ms : otherwise;
}
