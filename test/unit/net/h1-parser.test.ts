// The delivery client's response parser (net/h1-parser.ts): every response is fed whole,
// then split at every byte (reads can end anywhere), into ONE reused buffer as the client
// does, and the result must be the same.
import { describe, expect, it } from 'vitest';
import { H1ParseError, MAX_HEAD_BYTES, ResponseParser } from '../../../src-main/backend/net/h1-parser.js';
import { isStringRecord } from '../../../src-main/backend/store/history/headers-codec.js';

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
  done: boolean;
  keepAlive: boolean;
  error?: string;
  /** How much body had come when a piece was marked the last (-1: never), and how many were. */
  lastAt: number;
  lastMarks: number;
}

/** Feeds `pieces` through one shared buffer that is scribbled over between reads. */
function parse(pieces: string[], opts: { close?: boolean; limit?: number } = {}): Parsed {
  const out: Parsed = { status: 0, headers: {}, body: '', done: false, keepAlive: false, error: undefined, lastAt: -1, lastMarks: 0 };
  const shared = Buffer.alloc(64 * 1024);
  let kept = 0;
  const parser = new ResponseParser();
  parser.reset({
    onHead(status, headers) {
      out.status = status;
      out.headers = headers;
    },
    onBody(buf, start, end, last) {
      out.body += buf.toString('latin1', start, end);
      kept += end - start;
      if (last) {
        out.lastAt = out.body.length;
        out.lastMarks++;
      }
      return opts.limit === undefined || kept <= opts.limit;
    },
  });
  try {
    for (const piece of pieces) {
      shared.fill(0x0a); // stale bytes (LFs) beyond each read must never be read
      const n = shared.write(piece, 0, 'latin1');
      parser.execute(shared, 0, n);
      if (parser.stopped) break;
    }
    if (opts.close) parser.finish();
  } catch (err) {
    expect(err).toBeInstanceOf(H1ParseError);
    out.error = (err as Error).message;
  }
  out.done = parser.done;
  out.keepAlive = parser.keepAlive;
  return out;
}

/** The same response split into two reads at every byte, and into single bytes. */
function everySplit(raw: string, opts: { close?: boolean } = {}): Parsed[] {
  const all = [parse([raw], opts), parse([...raw], opts)];
  for (let i = 1; i < raw.length; i++) all.push(parse([raw.slice(0, i), raw.slice(i)], opts));
  return all;
}

function expectSame(raw: string, expected: Partial<Parsed>, opts: { close?: boolean } = {}): void {
  for (const got of everySplit(raw, opts)) expect(got).toMatchObject(expected);
}

describe('the delivery client response parser', () => {
  it('reads a content-length response split at every byte', () => {
    const raw = 'HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nContent-Length: 5\r\n\r\nhello';
    expectSame(raw, {
      status: 201,
      headers: { 'content-type': 'text/plain', 'set-cookie': 'a=1, b=2', 'content-length': '5' },
      body: 'hello',
      done: true,
      keepAlive: true,
      error: undefined,
      // The piece that ends a content-length body says so (the client then decodes a one-piece body at once).
      lastAt: 5,
      lastMarks: 1,
    });
    // Headers come as a plain record of strings: only then does the history log store the attempt compactly.
    expect(isStringRecord(parse([raw]).headers)).toBe(true);
  });

  it("keeps headers named like Object's own properties as sent, and drops __proto__", () => {
    const raw = 'HTTP/1.1 200 OK\r\nConstructor: x\r\ntoString: y\r\nhasOwnProperty: z\r\n__proto__: p\r\ncontent-length: 0\r\n\r\n';
    for (const got of everySplit(raw)) {
      expect({ ...got.headers }).toEqual({ constructor: 'x', tostring: 'y', hasownproperty: 'z', 'content-length': '0' });
      expect(JSON.parse(JSON.stringify(got.headers))).toEqual({
        constructor: 'x',
        tostring: 'y',
        hasownproperty: 'z',
        'content-length': '0',
      });
    }
  });

  it('reads a chunked body with extensions and trailers, split at every byte', () => {
    const raw = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n';
    expectSame(raw, { status: 200, body: 'hello, world', done: true, keepAlive: true, error: undefined, lastMarks: 0 });
    expect(parse([raw]).headers['x-trailer']).toBeUndefined();
  });

  it('skips informational answers (100, 103) and reports the final one with its own headers', () => {
    const raw =
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 202 Accepted\r\nX-Final: yes\r\nContent-Length: 2\r\n\r\nok';
    expectSame(raw, { status: 202, headers: { 'x-final': 'yes', 'content-length': '2' }, body: 'ok', done: true });
  });

  it('reads no body for 204 and 304, and a status line without a reason', () => {
    expectSame('HTTP/1.1 204 No Content\r\n\r\n', { status: 204, body: '', done: true, keepAlive: true });
    expectSame('HTTP/1.1 304\r\nContent-Length: 10\r\n\r\n', { status: 304, body: '', done: true });
    expectSame('HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n', { status: 200, body: '', done: true });
  });

  it('reads a body without a length to the close, and the connection is not kept', () => {
    const raw = 'HTTP/1.1 200 OK\r\n\r\nall of it';
    expectSame(raw, { status: 200, body: 'all of it', done: true, keepAlive: false }, { close: true });
    // Without the close it is not complete.
    expect(parse([raw])).toMatchObject({ body: 'all of it', done: false });
  });

  it('honours connection: close, and HTTP/1.0 keeps the connection only when asked', () => {
    expect(parse(['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'])).toMatchObject({ done: true, keepAlive: false });
    expect(parse(['HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n'])).toMatchObject({ done: true, keepAlive: false });
    expect(parse(['HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n'])).toMatchObject({
      done: true,
      keepAlive: true,
    });
  });

  it('reads the server keep-alive hint', () => {
    const p = new ResponseParser();
    p.reset({ onHead: () => undefined, onBody: () => true });
    const b = Buffer.from('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5\r\nContent-Length: 0\r\n\r\n', 'latin1');
    p.execute(b, 0, b.length);
    expect(p.keepAliveMs).toBe(5000);
  });

  it('stops when the handler has what it keeps', () => {
    const got = parse(['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', 'a'.repeat(60), 'b'.repeat(40)], { limit: 50 });
    expect(got).toMatchObject({ status: 200, done: false });
    expect(got.body).toBe('a'.repeat(60)); // the handler saw the read that crossed its limit, and nothing after
  });

  it('is incomplete when the connection closes mid-body or mid-head', () => {
    expect(parse(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'], { close: true })).toMatchObject({ done: false });
    expect(parse(['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab'], { close: true })).toMatchObject({ done: false });
    expect(parse(['HTTP/1.1 200 OK\r\nContent-Le'], { close: true })).toMatchObject({ done: false });
  });

  it('refuses headers over the size limit, however they are split', () => {
    const big = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES)}\r\nContent-Length: 0\r\n\r\n`;
    expect(parse([big]).error).toMatch(/headers too large/);
    expect(parse(big.match(/[\s\S]{1,1000}/g)!).error).toMatch(/headers too large/);
    const many = `HTTP/1.1 200 OK\r\n${'X-A: b\r\n'.repeat(MAX_HEAD_BYTES / 8)}\r\n`;
    expect(parse([many]).error).toMatch(/headers too large/);
    // Just under the limit is fine.
    const fits = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES - 200)}\r\nContent-Length: 0\r\n\r\n`;
    expect(parse([fits])).toMatchObject({ done: true, error: undefined });
  });

  it('refuses what breaks HTTP/1.1, however it is split', () => {
    const bad: [string, RegExp][] = [
      ['HTTP/2 200 OK\r\n\r\n', /bad status line/],
      ['HTTP/1.1 20 OK\r\n\r\n', /bad status line/],
      ['HTTP/1.1 200OK\r\n\r\n', /bad status line/],
      ['hello\r\n\r\n', /bad status line/],
      ['HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n', /without CR/],
      ['HTTP/1.1 200 OK\r\nX-A: 1\n\r\n', /without CR/],
      ['HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n', /folded/],
      ['HTTP/1.1 200 OK\r\nBad Name: 1\r\n\r\n', /bad header name/],
      ['HTTP/1.1 200 OK\r\n: 1\r\n\r\n', /bad header name/],
      ['HTTP/1.1 200 OK\r\nX-A: a\rb\r\n\r\n', /control character/],
      ['HTTP/1.1 200 OK\r\nX-A: a\x00b\r\n\r\n', /control character/],
      ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n', /both content-length/],
      ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', /conflicting/],
      ['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /bad content-length/],
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n', /not the last/],
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /bad chunk size/],
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n', /longer than its size/],
      ['HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n', /101/],
    ];
    for (const [raw, why] of bad) for (const got of everySplit(raw)) expect(got.error, JSON.stringify(raw)).toMatch(why);
  });

  it('reads each answer afresh while it remembers the names and values it read before', () => {
    // What the parser keeps from one answer (h1-names.ts, the last status line, header values) never changes the next.
    const answer = (date: string, len: string, extra = '') =>
      `HTTP/1.1 200 OK\r\nDate: ${date}\r\nContent-Length: ${len}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=7\r\n${extra}\r\n`;
    const one = parse([answer('Mon, 1', '2') + 'ok']);
    expect(one).toMatchObject({ status: 200, headers: { date: 'Mon, 1', 'content-length': '2' }, body: 'ok', keepAlive: true });
    const two = parse([answer('Mon, 2', '3', 'X-A: b\r\n') + 'yes']);
    expect(two).toMatchObject({ headers: { date: 'Mon, 2', 'content-length': '3', 'x-a': 'b' }, body: 'yes' });
    expect(Object.keys(two.headers)).toEqual(['date', 'content-length', 'connection', 'keep-alive', 'x-a']);
    // An empty value, or an empty status line, right after good ones is still refused.
    expect(parse([answer('Mon, 2', '')]).error).toMatch(/bad content-length/);
    expect(parse([answer('Mon, 2', '2')]).error).toBeUndefined();
    expect(parse(['\r\n\r\n']).error).toMatch(/bad status line/);
    // The same name in another case is its own line as sent, with the same lower-case key.
    expect(parse(['HTTP/1.1 204 No Content\r\nx-a: 1\r\nX-A: 2\r\n\r\n']).headers).toEqual({ 'x-a': '1, 2' });
  });

  it('keeps a response followed by bytes nobody asked for, but not its connection', () => {
    expectSame('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA', {
      status: 200,
      body: 'ok',
      done: true,
      keepAlive: false,
      error: undefined,
    });
  });

  it('reads a second response after reset, on the same parser', () => {
    const p = new ResponseParser();
    const bodies: string[] = [];
    const handler = {
      onHead: () => undefined,
      onBody: (b: Buffer, s: number, e: number) => (bodies.push(b.toString('latin1', s, e)), true),
    };
    for (const text of ['one', 'two']) {
      p.reset(handler);
      const b = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n${text}`, 'latin1');
      p.execute(b, 0, b.length);
      expect(p.done).toBe(true);
    }
    expect(bodies).toEqual(['one', 'two']);
  });
});
