// Attempt lines are encoded straight into bytes (history/line-bytes.ts, attempt-bytes.ts)
// instead of being built as text and then encoded. The bytes on disk must not change: the
// text encoder the history log used before is kept here as the reference, and every line
// (standard, odd, generated) must come out the same to the byte, as must every value
// LineBytes writes (against JSON.stringify and String).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { attemptBytes, changeBits, type LineChange } from '../../../src-main/backend/store/history/attempt-bytes.js';
import { LineBytes } from '../../../src-main/backend/store/history/line-bytes.js';
import { carriedDeliveryLine } from '../../../src-main/backend/store/history/records.js';
import { attemptPatchTail, canCompactAttempt, extrasJson, type BodyRef } from '../../../src-main/backend/store/history/compact.js';
import { jsonString, jsonValue } from '../../../src-main/backend/store/history/json-text.js';
import type { AttemptRecord, DeliverySummary } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery } from './history-fixtures.js';

// ---- the text encoder as it was (compact.ts encodeAttempt, headers-codec.ts encodeHeaders, records.ts attemptLine) ----
// A frozen copy on purpose, tables included: the bytes written by the encoder before the
// change are the reference, and headers-codec.ts's NAMES and PAIRS may only grow at their
// end (a written index keeps its meaning): a reorder there fails these tests.
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

function oldHeaders(h: Record<string, string>, deliveryId: string): string {
  let out = '';
  for (const name in h) {
    const value = h[name];
    if (out !== '') out += ',';
    if (name === 'webhook-id' && value === deliveryId) {
      out += '-1';
      continue;
    }
    const pair = PAIRS.findIndex(([n, v]) => n === name && v === value);
    if (pair >= 0) {
      out += pair;
      continue;
    }
    const n = NAMES.indexOf(name);
    out += `[${n < 0 ? jsonString(name) : n},${jsonString(value)}]`;
  }
  return `[${out}]`;
}

function oldAttempt(a: AttemptRecord, ref?: BodyRef): string | undefined {
  if (!canCompactAttempt(a)) return undefined;
  const id = a.delivery_id;
  const req = a.request;
  const res = a.response;
  const response = res === null ? 'null' : `[${res.status},${oldHeaders(res.headers, id)},${jsonString(res.body)},${res.truncated}]`;
  return (
    `[${jsonString(a.subscription_id)},${a.attempt},${jsonString(a.started_at)},${a.duration_ms},${jsonString(req.url)},` +
    `${oldHeaders(req.headers, id)},${ref ? `[${ref.off},${ref.len}]` : JSON.stringify(req.body)},${response},` +
    `${a.error === null ? 'null' : jsonString(a.error)},${a.succeeded},${a.next_attempt_at},${jsonString(a.rule as string)},` +
    `${jsonString(a.rule_detail as string)}${extrasJson(a, 12)}]`
  );
}

function oldLine(a: AttemptRecord, ref?: BodyRef, patch = ''): string {
  const id = jsonValue(a.delivery_id);
  const x = oldAttempt(a, ref);
  return x === undefined ? `{"t":"a","d":${id},"v":${JSON.stringify(a)}}\n` : `{"t":"a","d":${id},"x":${x}${patch}}\n`;
}
// ---- end of the reference ----

const bytesOf = (a: AttemptRecord, ref?: BodyRef, patch?: LineChange) => {
  const out = attemptBytes(a, ref, patch);
  return Buffer.from(out.buf.subarray(0, out.n));
};
const expectSame = (a: AttemptRecord, ref?: BodyRef, patch?: string) =>
  expect(bytesOf(a, ref, patch).equals(Buffer.from(oldLine(a, ref, patch)))).toBe(true);

const awkwardText = [
  '',
  'quote " backslash \\',
  'controls \u0000 \t \n \u001f \u007f',
  'pair 😀 lone \ud800 \udc00',
  'é ü 中文',
  'x'.repeat(300),
  '"'.repeat(70),
];
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 90 }),
  fc.constantFrom(...awkwardText),
  fc.string({ unit: 'grapheme-ascii', maxLength: 200 }),
);
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e15, 1e15 - 1, -1e15, 1e21, 2 ** 53, 1.234, 1_795_709_538_201),
);

describe('attempt lines in bytes', () => {
  it('are the old text encoder`s bytes for the engine`s attempts, odd shapes, references and patches', () => {
    const signed = {
      'content-type': 'application/json',
      'user-agent': 'Countersign-Webhooks/0.1',
      'webhook-id': 'msg_SZORVaR0k5SqymOhSLRInN',
      'webhook-timestamp': '1795709538',
      'webhook-signature': 'v1,44Y9gF3rpBilbgPkp16vyfa6Se8ldHDXpQksPgz9K3o=',
    };
    const answer = {
      'content-type': 'application/json',
      'content-length': '11',
      date: 'Thu, 26 Nov 2026 16:12:18 GMT',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
    };
    const engine = attempt({
      delivery_id: 'msg_SZORVaR0k5SqymOhSLRInN',
      duration_ms: 1.2345,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:40000/cs/0',
        headers: signed,
        body: JSON.stringify({ t: 'x'.repeat(700), q: '"é"' }),
      },
      response: { status: 200, headers: answer, body: '{"ok":true}', truncated: false },
    });
    const older = { ...attempt() } as Partial<AttemptRecord>;
    delete older.rule;
    const cases: AttemptRecord[] = [
      engine,
      attempt(),
      attempt({ response: null, error: 'ECONNREFUSED: "connect" failed', succeeded: false, next_attempt_at: 1_700_000_000_123 }),
      attempt({ duration_ms: -0, attempt: 7, request: { method: 'POST', url: '', headers: {}, body: '' } }),
      attempt({ request: { method: 'POST', url: 'u', headers: JSON.parse('{"__proto__":"p","10":"ten","2":"two"}'), body: 'b' } }),
      { ...attempt(), faults: ['wrong_secret', 'delay'], tunnel_offline: true, slowed_down: true } as AttemptRecord,
      attempt({ duration_ms: Number.NaN }),
      older as AttemptRecord,
      { ...attempt(), delivery_id: 7 } as unknown as AttemptRecord,
    ];
    for (const a of cases) {
      expectSame(a);
      expectSame(a, { off: 123_456, len: 730 });
      expectSame(a, undefined, ',"m":28032,"p":{"6":"http://h/é"}');
    }
  });

  it('are the old text encoder`s bytes for generated attempts (property)', () => {
    const headers = fc.dictionary(
      fc.oneof(fc.constantFrom('content-type', 'date', 'webhook-id', 'connection', '__proto__', '7'), text),
      text,
      { maxKeys: 6 },
    );
    fc.assert(
      fc.property(
        text,
        text,
        headers,
        headers,
        text,
        fc.option(text),
        fc.boolean(),
        number,
        number,
        fc.option(number),
        fc.option(fc.nat()),
        (id, body, reqH, resH, resBody, error, ok, status, duration, next, off) => {
          const a = attempt({
            delivery_id: id,
            subscription_id: id.slice(0, 3),
            duration_ms: duration,
            request: {
              method: 'POST',
              url: 'http://x/' + body.slice(0, 5),
              headers: { ...reqH, 'webhook-id': id.length % 2 ? id : 'msg_x' },
              body,
            },
            response: ok ? { status, headers: resH, body: resBody, truncated: status % 2 === 0 } : null,
            error,
            succeeded: ok,
            next_attempt_at: next,
            rule: (error ?? 'success') as AttemptRecord['rule'],
            rule_detail: resBody.slice(0, 9),
          });
          expectSame(a, off === null ? undefined : { off, len: duration });
        },
      ),
      { seed: 26, numRuns: 400 },
    );
  });

  it('make carried delivery lines as they were', () => {
    const list = [
      attempt(),
      attempt({ attempt: 2, request: { ...attempt().request, body: 'x'.repeat(200) } }),
      { ...attempt(), delivery_id: 'msg_other' },
    ];
    const expected = `{"t":"d","s":3,"c":1,"w":${JSON.stringify(Object.values(delivery()))},"a":[${oldAttempt(list[0])},${oldAttempt(list[1])},${JSON.stringify(list[2])}]}\n`;
    expect(carriedDeliveryLine(3, delivery(), list)).toBe(expected);
  });
});

describe('a delivery change carried on an attempt line, written from bits', () => {
  it('is attemptPatchTail`s text to the byte wherever changeBits answers (property)', () => {
    const value = fc.oneof(
      fc.constant(null),
      number,
      text,
      fc.boolean(),
      fc.constantFrom(Number.NaN, Infinity, '2025-01-01T00:00:01.000Z', 200),
    );
    const old = delivery({ next_attempt_at: 1_700_000_000_000 });
    let answered = 0;
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 1, max: 9 }),
        fc.option(fc.integer({ min: 100, max: 599 })),
        fc.option(text),
        fc.option(number),
        fc.array(fc.tuple(fc.nat(14), value), { maxLength: 8 }),
        fc.option(fc.constantFrom({ last_tunnel_offline: true }, { note: [1] }), { nil: undefined }),
        (ok, n, status, error, next, changes, extra) => {
          const a = attempt({
            attempt: n,
            succeeded: ok,
            error,
            next_attempt_at: next,
            response: status === null ? null : { status, headers: {}, body: '', truncated: false },
          });
          const d: Record<string, unknown> = {
            ...old,
            status: ok ? 'succeeded' : 'pending',
            attempts: n,
            last_attempt_at: a.started_at,
            last_status_code: status,
            last_error: error,
            last_duration_ms: a.duration_ms,
            next_attempt_at: next,
          };
          for (const [i, v] of changes) d[Object.keys(old)[i]] = v;
          Object.assign(d, extra);
          const summary = d as unknown as DeliverySummary;
          const bits = changeBits(a, old, summary);
          if (bits < 0) return;
          answered++;
          expectSame(a, undefined, attemptPatchTail(a, old, summary));
          const fromBits = bytesOf(a, undefined, { bits, d: summary });
          expect(fromBits.toString()).toBe(oldLine(a, undefined, attemptPatchTail(a, old, summary)));
        },
      ),
      { seed: 11, numRuns: 1500 },
    );
    expect(answered).toBeGreaterThan(150); // enough generated changes took the bits' way (the rest: extra keys, NaN, Infinity)
  });
});

describe('LineBytes', () => {
  const written = (f: (out: LineBytes) => void) => {
    const out = new LineBytes(4); // small, so that every test grows it too
    out.ascii('<');
    f(out);
    return out.text().slice(1);
  };

  it('writes a string as JSON.stringify does (property)', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(written((o) => o.str(s))).toBe(JSON.stringify(s));
      }),
      { seed: 1, numRuns: 500 },
    );
    for (const s of awkwardText) expect(written((o) => o.str(s))).toBe(JSON.stringify(s));
  });

  it('writes a number as String does (property)', () => {
    fc.assert(
      fc.property(number, (v) => {
        expect(written((o) => o.num(v))).toBe(String(v));
      }),
      { seed: 2, numRuns: 1000 },
    );
    for (const v of [0, -0, 9, 10, 99, 100, -1, 1e15 - 1, 1e15, -(1e15 - 1), 0.1, 1e21, 1_795_709_538_201])
      expect(written((o) => o.num(v))).toBe(JSON.stringify(v));
  });

  it('writes any text in UTF-8, short or long', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(Buffer.from(written((o) => o.utf8(s)))).toEqual(Buffer.from(s));
      }),
      { seed: 3, numRuns: 300 },
    );
  });
});
