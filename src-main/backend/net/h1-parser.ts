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

import { CLOSE, KEEP_ALIVE, chunkedLast, connectionTokens, contentLength, fail, keepAliveHint } from './h1-fields.js';
import { nameAt, valueAt } from './h1-names.js';

export { H1ParseError } from './h1-fields.js';

/** Status line plus headers, and separately the trailers, at most this many bytes (Node's and undici's default). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** A chunk-size line (with its extensions) at most this long. */
const MAX_CHUNK_LINE = 1024;

export interface ResponseHandler {
  /** The final (non-informational) status and headers: names in lower case, repeated ones joined with ", ". */
  onHead(status: number, headers: Record<string, string>): void;
  /** Body bytes `buf[start, end)`; the buffer is reused after the call. `last`: the body ends with them. Returns false to stop reading. */
  onBody(buf: Buffer, start: number, end: number, last: boolean): boolean;
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
/** The last status line matched, and what it said (none at first). */
let lastStatus: { line: string | undefined; http11: boolean; status: number } = { line: undefined, http11: true, status: 0 };
const CHUNK_LINE = /^([0-9A-Fa-f]{1,13})[ \t]*(?:;.*)?$/;
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
        const more = this.handler!.onBody(buf, p, p + n, state === LENGTH && this.remaining === 0);
        p += n;
        if (!more) return void (this.state = STOPPED);
        if (this.remaining === 0) this.state = state === LENGTH ? DONE : CHUNK_END;
      } else if (state === TO_CLOSE) {
        if (!this.handler!.onBody(buf, p, end, false)) this.state = STOPPED;
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
    // A header line whole in this read (the usual case): read from the bytes, no line string made.
    if (this.state === HEADER && this.partial.length === 0) {
      if (lf === p || buf[lf - 1] !== 13) fail('a line ends without CR');
      this.headBytes += this.lineBytes;
      this.lineBytes = 0;
      if (lf - 1 === p) this.endHead();
      else this.headerAt(buf, p, lf - 1, false);
      return stop;
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
        // The same status line as the last one read (the usual case) is not matched again.
        if (line !== lastStatus.line) {
          const m = STATUS_LINE.exec(line);
          if (!m) fail(`bad status line "${line.slice(0, 40)}"`);
          lastStatus = { line, http11: m![1] === '1', status: Number(m![2]) };
        }
        this.http11 = lastStatus.http11;
        this.status = lastStatus.status;
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

  /** A header line put together from pieces of several reads (or a trailer): read as bytes too. */
  private header(line: string, trailer: boolean): void {
    const b = Buffer.from(line, 'latin1');
    this.headerAt(b, 0, b.length, trailer);
  }

  /** The header line buf[p, e) (no CR LF), read from the bytes: a string made only for a name or value not seen just before. */
  private headerAt(buf: Buffer, p: number, e: number, trailer: boolean): void {
    const first = buf[p];
    if (first === 32 || first === 9) fail('folded header line');
    let colon = p;
    while (colon < e && buf[colon] !== 0x3a) colon++;
    if (colon === p || colon === e) fail('bad header name');
    // An endpoint sends the same few names on every answer: each is checked and lower-cased once (h1-names.ts).
    const name = nameAt(buf, p, colon);
    const key = name.key;
    let a = colon + 1;
    let b = e;
    while (a < b && (buf[a] === 32 || buf[a] === 9)) a++;
    while (b > a && (buf[b - 1] === 32 || buf[b - 1] === 9)) b--;
    for (let i = a; i < b; i++) {
      const c = buf[i];
      // BAD_VALUE: a control character other than tab, or DEL.
      if ((c < 0x20 && c !== 9) || c === 0x7f) fail(`control character in header "${name.raw}"`);
    }
    if (trailer) return;
    const value = valueAt(name, buf, a, b);
    if (key === 'content-length') this.contentLength(value);
    else if (key === 'transfer-encoding') this.transferEncoding(value);
    else if (key === 'connection') this.connection(value);
    else if (key === 'keep-alive') this.keepAliveMs = keepAliveHint(value, this.keepAliveMs);
    else if (key === '__proto__') return;
    // A plain object (the history's compact attempt encoding needs one): `constructor` or `toString` is read as its own.
    const had = Object.hasOwn(this.headers, key) ? this.headers[key] : undefined;
    this.headers[key] = had === undefined ? value : `${had}, ${value}`;
  }

  private contentLength(value: string): void {
    this.length = contentLength(value, this.length);
  }

  private transferEncoding(value: string): void {
    if (this.chunked) fail('chunked applied twice');
    this.chunked = chunkedLast(value);
    this.otherCoding = !this.chunked;
  }

  private connection(value: string): void {
    const t = connectionTokens(value);
    if (t & CLOSE) this.close = true;
    if (t & KEEP_ALIVE) this.keepAliveHeader = true;
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
