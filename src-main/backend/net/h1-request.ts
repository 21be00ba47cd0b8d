// The bytes of one POST of the delivery client (h1-client.ts): request line, headers and
// body in one buffer, written with one socket.write. The request line and Host come from
// a parsed URL (h1-client.ts `requestHead`), where the URL parser has already escaped
// anything that could break a line; every header name must be a token and every value
// printable (tab, space to ~, and latin1's upper half, as undici and Node allow), so no
// CR, LF or NUL a caller passes can reach the wire: such a header throws instead.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/** Headers the client writes itself; a caller's would contradict them. */
const OWN = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);
/** Header names already checked (a sender uses the same few names on every request). */
const checkedNames = new Set<string>();

export class InvalidHeaderError extends Error {
  override name = 'InvalidHeaderError';
  readonly code = 'ERR_INVALID_HEADER';
}

function checkName(name: string): void {
  if (checkedNames.has(name)) return;
  if (!TOKEN.test(name)) throw new InvalidHeaderError(`invalid header name "${name.replace(/[^\x20-\x7e]/g, '?')}"`);
  if (OWN.has(name.toLowerCase())) throw new InvalidHeaderError(`the "${name}" header is set by the sender`);
  if (checkedNames.size < 256) checkedNames.add(name);
}

/** `POST <path> HTTP/1.1` with Host (port included when not the scheme's default, as undici writes it). */
export function requestHead(url: URL): string {
  return `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\n`;
}

/** One request: `head` (requestHead), the caller's headers, content-length, the body. */
export function requestBytes(head: string, headers: Record<string, string>, body: string | Buffer): Buffer {
  let text = head;
  for (const name in headers) {
    const value = headers[name];
    checkName(name);
    if (typeof value !== 'string' || BAD_VALUE.test(value)) throw new InvalidHeaderError(`invalid value for header "${name}"`);
    text += `${name}: ${value}\r\n`;
  }
  const bodyLength = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  text += `content-length: ${bodyLength}\r\n\r\n`;
  // Every character of `text` is below 0x100 (checked above, or from a parsed URL): one byte each in latin1.
  const out = Buffer.allocUnsafe(text.length + bodyLength);
  out.write(text, 0, 'latin1');
  if (typeof body === 'string') out.write(body, text.length, 'utf8');
  else body.copy(out, text.length);
  return out;
}
