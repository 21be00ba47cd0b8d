// A strict, bounded HTTP/1.1 response parser for the delivery client (h1-client.ts).
// It reads what an endpoint answers to one POST: the status line, the headers (at most
// MAX_HEAD_BYTES of them), and a body framed by content-length, by chunked transfer
// coding (trailers read and dropped) or by the connection's close. Informational answers
// (100, 102, 103) are skipped; 204 and 304 carry no body. Anything else that breaks
// HTTP/1.1 (a bare LF, obs-fold, a header name that is not a token, a control character
// in a value, both content-length and transfer-encoding, conflicting lengths, a 101 the
// client never asked for) throws an H1ParseError: the connection is then given up. Bytes
// after a complete response leave the response as read but the connection unfit to reuse.
//
// `execute` is called with slices of a buffer the caller reuses for every read, so body
// bytes are handed on at once (the handler copies what it keeps) and only an unfinished
// line is kept, as a latin1 string.

/** Status line plus headers, and separately the trailers, at most this many bytes (Node's and undici's default). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** A chunk-size line (with its extensions) at most this long. */
const MAX_CHUNK_LINE = 1024;

export class H1ParseError extends Error {
  override name = 'H1ParseError';
  readonly code = 'HPE_INVALID';
}

export interface ResponseHandler {
  /** The final (non-informational) status and headers: names in lower case, repeated ones joined with ", ". */
  onHead(status: number, headers: Record<string, string>): void;
  /** Body bytes `buf[start, end)`; the buffer is reused after the call. Returns false to stop reading. */
  onBody(buf: Buffer, start: number, end: number): boolean;
}

const STATUS = 0;
const HEADER = 1;
const LENGTH = 2;
const CHUNK_SIZE = 3;
const CHUNK_DATA = 4;
const CHUNK_END = 5;
const TRAILER = 6;
const TO_CLOSE = 7;
const DONE = 8;
const STOPPED = 9;

const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [^\x00-\x08\x0a-\x1f\x7f]*)?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const CHUNK_LINE = /^([0-9A-Fa-f]{1,13})[ \t]*(?:;.*)?$/;
/** Header names seen, as sent -> lower case (valid tokens only), at most MAX_NAMES of them. */
const NAMES = new Map<string, string>();
const MAX_NAMES = 512;
const fail = (why: string): never => {
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

export class ResponseParser {
  private state = STATUS;
  private partial = '';
  private lineBytes = 0;
  private headBytes = 0;
  private status = 0;
  private http11 = true;
  private headers: Record<string, string> = {};
  private length = -1;
  private chunked = false;
  private otherCoding = false;
  private close = false;
  private keepAliveHeader = false;
  private remaining = 0;
  /** Any byte of a response has arrived (a closed connection with none may be retried). */
  received = false;
  /** The server's keep-alive timeout hint (`keep-alive: timeout=N`), in ms, or -1. */
  keepAliveMs = -1;

  constructor(private handler: ResponseHandler | null = null) {}

  /** Ready for the response to the next request, told to `handler`. */
  reset(handler: ResponseHandler): void {
    this.handler = handler;
    this.state = STATUS;
    this.received = false;
    this.keepAliveMs = -1;
    this.newHead();
  }

  /** The whole response was read. */
  get done(): boolean {
    return this.state === DONE;
  }

  /** The handler stopped reading (onBody returned false). */
  get stopped(): boolean {
    return this.state === STOPPED;
  }

  /** The connection may carry another request after this response. */
  get keepAlive(): boolean {
    return this.state === DONE && !this.close && (this.http11 || this.keepAliveHeader);
  }

  /**
   * The connection ended: a body read to the close is complete (true); any other
   * unfinished response is not (false).
   */
  finish(): boolean {
    if (this.state === TO_CLOSE) {
      this.state = DONE;
      this.close = true;
    }
    return this.state === DONE;
  }

  /** Reads `buf[start, end)`. Throws H1ParseError; stops early when done or stopped. */
  execute(buf: Buffer, start: number, end: number): void {
    if (start < end) this.received = true;
    let p = start;
    while (p < end) {
      const state = this.state;
      if (state === LENGTH || state === CHUNK_DATA) {
        const n = Math.min(end - p, this.remaining);
        this.remaining -= n;
        const more = this.handler!.onBody(buf, p, p + n);
        p += n;
        if (!more) return void (this.state = STOPPED);
        if (this.remaining === 0) this.state = state === LENGTH ? DONE : CHUNK_END;
      } else if (state === TO_CLOSE) {
        if (!this.handler!.onBody(buf, p, end)) this.state = STOPPED;
        return;
      } else if (state === DONE) {
        // Nothing was asked for after this response: it stands, the connection does not.
        this.close = true;
        return;
      } else if (state === STOPPED) {
        return;
      } else {
        p = this.readLine(buf, p, end);
      }
    }
  }

  /** Consumes up to one line; a complete one is handled. Returns where reading goes on. */
  private readLine(buf: Buffer, p: number, end: number): number {
    let lf = buf.indexOf(10, p);
    if (lf >= end) lf = -1;
    const stop = lf === -1 ? end : lf + 1;
    this.lineBytes += stop - p;
    const cap = this.state === CHUNK_SIZE || this.state === CHUNK_END ? MAX_CHUNK_LINE : MAX_HEAD_BYTES - this.headBytes;
    if (this.lineBytes > cap)
      fail(this.state === CHUNK_SIZE || this.state === CHUNK_END ? 'a chunk line is too long' : 'headers too large');
    if (lf === -1) {
      this.partial += buf.toString('latin1', p, end);
      return end;
    }
    let line = buf.toString('latin1', p, lf);
    if (this.partial.length > 0) {
      line = this.partial + line;
      this.partial = '';
    }
    if (line.charCodeAt(line.length - 1) !== 13) fail('a line ends without CR');
    if (this.state !== CHUNK_SIZE && this.state !== CHUNK_END) this.headBytes += this.lineBytes;
    this.lineBytes = 0;
    this.line(line.slice(0, -1));
    return stop;
  }

  private line(line: string): void {
    switch (this.state) {
      case STATUS: {
        const m = STATUS_LINE.exec(line);
        if (!m) fail(`bad status line "${line.slice(0, 40)}"`);
        this.http11 = m![1] === '1';
        this.status = Number(m![2]);
        this.state = HEADER;
        return;
      }
      case HEADER:
        if (line.length === 0) return this.endHead();
        return this.header(line, false);
      case CHUNK_SIZE: {
        const m = CHUNK_LINE.exec(line);
        if (!m) fail('bad chunk size');
        this.remaining = parseInt(m![1], 16);
        if (this.remaining === 0) {
          this.state = TRAILER;
          this.headBytes = 0;
        } else this.state = CHUNK_DATA;
        return;
      }
      case CHUNK_END:
        if (line.length !== 0) fail('chunk data longer than its size');
        this.state = CHUNK_SIZE;
        return;
      case TRAILER:
        if (line.length === 0) this.state = DONE;
        else this.header(line, true);
        return;
    }
  }

  private header(line: string, trailer: boolean): void {
    const first = line.charCodeAt(0);
    if (first === 32 || first === 9) fail('folded header line');
    const colon = line.indexOf(':');
    const raw = colon > 0 ? line.slice(0, colon) : '';
    // An endpoint sends the same few names on every answer: each is checked and lower-cased once.
    let key = NAMES.get(raw);
    if (key === undefined) {
      if (!TOKEN.test(raw)) fail('bad header name');
      key = raw.toLowerCase();
      if (NAMES.size < MAX_NAMES) NAMES.set(raw, key);
    }
    let a = colon + 1;
    let b = line.length;
    while (a < b && (line.charCodeAt(a) === 32 || line.charCodeAt(a) === 9)) a++;
    while (b > a && (line.charCodeAt(b - 1) === 32 || line.charCodeAt(b - 1) === 9)) b--;
    const value = line.slice(a, b);
    if (BAD_VALUE.test(value)) fail(`control character in header "${raw}"`);
    if (trailer) return;
    if (key === 'content-length') this.contentLength(value);
    else if (key === 'transfer-encoding') this.transferEncoding(value);
    else if (key === 'connection') this.connection(value);
    else if (key === 'keep-alive') this.keepAliveHint(value);
    else if (key === '__proto__') return;
    // A plain object (the history's compact attempt encoding needs one): `constructor` or `toString` is read as its own.
    const had = Object.hasOwn(this.headers, key) ? this.headers[key] : undefined;
    this.headers[key] = had === undefined ? value : `${had}, ${value}`;
  }

  private contentLength(value: string): void {
    if (!/^\d{1,15}$/.test(value)) fail('bad content-length');
    const n = Number(value);
    if (this.length !== -1 && this.length !== n) fail('conflicting content-length');
    this.length = n;
  }

  private transferEncoding(value: string): void {
    const codings = value.toLowerCase().split(',');
    const last = trimOws(codings[codings.length - 1]);
    if (this.chunked) fail('chunked applied twice');
    this.chunked = last === 'chunked';
    this.otherCoding = !this.chunked;
    for (let i = 0; i < codings.length - 1; i++) if (trimOws(codings[i]) === 'chunked') fail('chunked is not the last coding');
  }

  private connection(value: string): void {
    for (const token of value.toLowerCase().split(',')) {
      const t = trimOws(token);
      if (t === 'close') this.close = true;
      else if (t === 'keep-alive') this.keepAliveHeader = true;
    }
  }

  private keepAliveHint(value: string): void {
    const m = /(?:^|[\s,])timeout\s*=\s*(\d{1,6})/i.exec(value);
    if (m) this.keepAliveMs = Number(m[1]) * 1000;
  }

  private endHead(): void {
    const status = this.status;
    if (status < 200) {
      if (status === 101) fail('101 Switching Protocols to a request that asked for no upgrade');
      this.state = STATUS; // informational: the real answer follows
      this.newHead();
      return;
    }
    if (this.length !== -1 && (this.chunked || this.otherCoding)) fail('both content-length and transfer-encoding');
    this.handler!.onHead(status, this.headers);
    if (status === 204 || status === 304) this.state = DONE;
    else if (this.chunked) this.state = CHUNK_SIZE;
    else if (this.otherCoding || this.length === -1) {
      this.state = TO_CLOSE;
      this.close = true;
    } else if (this.length === 0) this.state = DONE;
    else {
      this.remaining = this.length;
      this.state = LENGTH;
    }
  }

  private newHead(): void {
    this.partial = '';
    this.lineBytes = 0;
    this.headBytes = 0;
    this.headers = {};
    this.length = -1;
    this.chunked = false;
    this.otherCoding = false;
    this.close = false;
    this.keepAliveHeader = false;
  }
}
