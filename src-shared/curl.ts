// "Copy as curl": a POSIX shell command that sends a request again, built the same way
// for a capture (the backend's receiver routes) and for a logged delivery attempt (the
// inspector page). Pure: no Node or DOM types.
// Guards against:
// - shell injection from captured or logged data: the method, URL and every header are
//   single-quoted (a ' inside becomes '\''), so quotes, $(), backticks, newlines and
//   non-ASCII stay literal; the body is never an argument curl parses, it goes through
//   printf '%s' on standard input (as base64, decoded by `base64 -d`, when it is bytes
//   or holds a NUL, which no shell word can carry); a URL starting with "-" is passed
//   after --url so that curl cannot read it as an option;
// - leaking credentials into a command that gets pasted into chats and tickets: every
//   credential header (the one rule, credential-headers.ts) is left out, as are those
//   that belong to one connection (curl sets its own) and any header that could not be
//   sent as it is (CR, LF, NUL).
import { isCredentialHeader } from './credential-headers.js';

/** Headers of one connection or hop (Proxy-Authorization is a credential for the next proxy only), or that an HTTP client sets itself. */
export const HOP_BY_HOP_HEADERS = [
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
] as const;

const HOP_BY_HOP: ReadonlySet<string> = new Set<string>(HOP_BY_HOP_HEADERS);

/** Whether a header (any case) is never put in a curl line: a credential, or one of one connection. */
export function leftOutOfCurl(name: string): boolean {
  return isCredentialHeader(name) || HOP_BY_HOP.has(name.toLowerCase());
}

/** The body as text (sent as UTF-8) or as bytes in base64. */
export type CurlBody = { text: string } | { base64: string };

export interface CurlRequest {
  method: string;
  url: string;
  /** In the order they were sent; names in any case. */
  headers: ReadonlyArray<readonly [string, string]>;
  body?: CurlBody;
}

/** One POSIX shell word holding `s` exactly. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const UNSENDABLE = /[\r\n\0]/;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function utf8Bytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate is sent as U+FFFD, as any UTF-8 encoder does
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

/** Base64 of the UTF-8 bytes of `text`. */
export function utf8Base64(text: string): string {
  const b = utf8Bytes(text);
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += BASE64[n >> 18] + BASE64[(n >> 12) & 63];
    out += i + 1 < b.length ? BASE64[(n >> 6) & 63] : '=';
    out += i + 2 < b.length ? BASE64[n & 63] : '=';
  }
  return out;
}

/** The command, one line ending in a newline. */
export function curlCommand(req: CurlRequest): string {
  const url = req.url.startsWith('-') ? ['--url', shellQuote(req.url)] : [shellQuote(req.url)];
  const parts = ['curl', '-sS', '-X', shellQuote(req.method), ...url];
  for (const [name, value] of req.headers) {
    if (leftOutOfCurl(name) || UNSENDABLE.test(name) || UNSENDABLE.test(value)) continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  const body = req.body;
  if (!body || ('text' in body ? body.text === '' : body.base64 === '')) return `${parts.join(' ')}\n`;
  parts.push('--data-binary', '@-');
  const cmd = parts.join(' ');
  if ('text' in body && !body.text.includes('\0')) return `printf '%s' ${shellQuote(body.text)} | ${cmd}\n`;
  const base64 = 'text' in body ? utf8Base64(body.text) : body.base64;
  return `printf '%s' ${shellQuote(base64)} | base64 -d | ${cmd}\n`;
}
