// The history log's line format: whatever is written compactly (attempts, summaries,
// patches, deflated bodies) must read back exactly as recorded: the same keys in the same
// order and the same values, so the inspector shows the bytes that were sent and received.
// Anything the compact forms cannot hold is kept as plain JSON, as given.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import {
  attemptChange,
  carriedDeliveryLine,
  scanLine,
  parseAttempt,
  parseEventBody,
  eventLine,
} from '../../../src-main/backend/store/history/records.js';
import { attemptLine } from '../../../src-main/backend/store/history/attempt-bytes.js';
import { applyPatch, decodeSummary, encodeSummary, summaryPatch } from '../../../src-main/backend/store/history/compact.js';
import type { AttemptRecord, DeliverySummary } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event } from './history-fixtures.js';

const plain = (a: unknown) => `{"t":"a","d":${JSON.stringify((a as AttemptRecord).delivery_id)},"v":${JSON.stringify(a)}}\n`;
const longBody = JSON.stringify({ id: 'evt_1', data: { title: 'quotes " and \\ and \u2028 and é and 😀', pad: 'x'.repeat(400) } });

/** Same JSON text and the same own keys in the same order, nested too. */
function expectExact(back: unknown, original: unknown): void {
  expect(JSON.stringify(back)).toBe(JSON.stringify(original));
  expect(back).toStrictEqual(JSON.parse(JSON.stringify(original)));
}

const roundTrip = (a: AttemptRecord) => parseAttempt(attemptLine(a).trimEnd())?.attempt;

describe('attempt lines', () => {
  const standard: AttemptRecord[] = [
    attempt(),
    attempt({
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:1/a?b="c"',
        headers: { 'webhook-id': 'msg_1', x: 'y"z', 'content-type': 'application/json', 'webhook-signature': 'v1,abc=' },
        body: longBody,
      },
    }),
    attempt({ response: null, error: 'ECONNREFUSED: "connect" failed', succeeded: false, next_attempt_at: 1_700_000_000_123 }),
    attempt({ response: { status: 500, headers: {}, body: longBody + longBody, truncated: true }, succeeded: false }),
    attempt({ duration_ms: 0, attempt: 7, request: { method: 'POST', url: '', headers: {}, body: '' } }),
    attempt({
      response: { status: 429, headers: { 'retry-after': '7', date: 'Thu, 26 Nov 2026 08:34:28 GMT' }, body: '', truncated: false },
      succeeded: false,
      rule: 'retry_after',
      rule_detail: '429 "x"',
      slowed_down: true,
    }),
    // Header names that plain assignment would treat specially, and integer-like names (which objects order first).
    attempt({
      request: { method: 'POST', url: 'u', headers: JSON.parse('{"__proto__":"p","10":"ten","2":"two"}'), body: 'b' },
    }),
    // webhook-id that is not the delivery id, and a lone surrogate in a body and a header.
    attempt({ request: { method: 'POST', url: 'u', headers: { 'webhook-id': 'msg_other', 'x-odd': '\ud800' }, body: '\udc00 lone' } }),
    { ...attempt(), faults: ['wrong_secret', 'delay'], tunnel_offline: true } as AttemptRecord,
    { ...attempt(), note: { nested: [1, 'two'] } } as AttemptRecord,
  ];

  it('read back exactly, and compactly, for every variant the engine and the import write', () => {
    for (const a of standard) {
      const line = attemptLine(a);
      expect(line).toContain('"x":[');
      expect(line.length).toBeLessThan(plain(a).length);
      expectExact(roundTrip(a), a);
      expectExact(roundTrip(a), a); // the cached string literal of a long body is reused, still exact
    }
  });

  it('keep records of any other shape as given (missing, moved or odd fields)', () => {
    const older = { ...attempt() } as Partial<AttemptRecord>;
    delete older.rule;
    delete older.rule_detail;
    const moved = { rule: 'success', ...attempt() } as AttemptRecord;
    const others = [
      attempt({ duration_ms: Number.NaN }),
      attempt({ request: { ...attempt().request, extra: 1 } as AttemptRecord['request'] }),
      attempt({ response: { status: 200, body: 'ok', truncated: false } as AttemptRecord['response'] }),
      attempt({ request: { ...attempt().request, headers: { n: 5 } as unknown as Record<string, string> } }),
      attempt({ request: { ...attempt().request, method: 'PUT' as 'POST' } }),
      older as AttemptRecord,
      moved,
      attempt({ request: { ...attempt().request, headers: { constructor: 'c' } } }), // not a plain string record
    ];
    for (const a of others) {
      expect(attemptLine(a)).toBe(plain(a));
      expect(parseAttempt(attemptLine(a).trimEnd())?.attempt).toStrictEqual(JSON.parse(JSON.stringify(a)));
    }
  });

  it('store a request body as a reference to its event line when told so', () => {
    const a = attempt({ request: { ...attempt().request, body: longBody } });
    const line = attemptLine(a, { off: 123, len: 456 });
    expect(line).not.toContain('pad');
    const parsed = parseAttempt(line.trimEnd());
    expect(parsed?.ref).toEqual({ off: 123, len: 456 });
    expect(parsed?.attempt.request.body).toBe('');
  });

  it('read back exactly from a carried delivery line, compact or not', () => {
    const older = { ...attempt({ attempt: 2 }) } as Partial<AttemptRecord>;
    delete older.rule;
    const list = [standard[1], older as AttemptRecord, standard[8]];
    const line = carriedDeliveryLine(3, delivery(), list).trimEnd();
    list.forEach((a, i) => expectExact(parseAttempt(line, i)?.attempt, a));
    expect(parseAttempt(line, 3)).toBeUndefined();
  });

  it('read back exactly for generated headers, bodies and values (property)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 200 });
    const headers = fc.dictionary(fc.oneof(fc.constantFrom('content-type', 'date', 'webhook-id', '__proto__', '7'), text), text, {
      maxKeys: 6,
    });
    fc.assert(
      fc.property(
        text,
        headers,
        headers,
        text,
        fc.option(text),
        fc.boolean(),
        fc.integer({ min: 0, max: 599 }),
        (body, reqH, resH, resBody, error, ok, status) => {
          const a = attempt({
            request: { method: 'POST', url: 'http://x/' + body.slice(0, 5), headers: reqH, body },
            response: ok ? { status, headers: resH, body: resBody, truncated: status % 2 === 0 } : null,
            error,
            succeeded: ok,
          });
          expectExact(roundTrip(a), a);
        },
      ),
      { seed: 9, numRuns: 200 },
    );
  });
});

describe('summary lines', () => {
  const base = delivery({ next_attempt_at: 1_700_000_000_000 });

  it('read back exactly, extra fields included, and fall back to plain JSON for other shapes', () => {
    const variants: DeliverySummary[] = [
      base,
      { ...base, imported: true, last_tunnel_offline: true },
      { ...base, origin: 'check', document_id: null, url: 'http://h/"q"' },
      Object.assign({ status: 'pending' }, base), // keys in another order
    ];
    for (const d of variants) expectExact(decodeSummary(JSON.parse(encodeSummary(d))), d);
    expect(encodeSummary(base).startsWith('[')).toBe(true);
    expect(encodeSummary(variants[3]).startsWith('{')).toBe(true);
  });

  it('patches hold only what changed, and applying one gives the new summary exactly', () => {
    const after = { ...base, status: 'succeeded', attempts: 1, last_status_code: 200, next_attempt_at: null } as DeliverySummary;
    const patch = summaryPatch(base, after)!;
    expect(patch.length).toBeLessThan(60);
    expectExact(applyPatch(base, JSON.parse(patch)), after);
    expect(summaryPatch(base, { ...base })).toBe('{}');
    const added = { ...after, last_tunnel_offline: true } as DeliverySummary;
    expectExact(applyPatch(base, JSON.parse(summaryPatch(base, added)!)), added);
    const removed = { ...added } as Partial<DeliverySummary>;
    delete removed.last_tunnel_offline;
    expect(summaryPatch(added, removed as DeliverySummary)).toBeUndefined(); // a whole summary is written instead
    expect(summaryPatch(base, Object.assign({ status: 'failed' }, base))).toBeUndefined();
  });
});

describe('a change carried on its attempt line', () => {
  const old = delivery({ next_attempt_at: 1_700_000_000_000 });
  /** The summary the loader makes of `old` and the attempt line written for `a` and `d`. */
  function replayed(a: AttemptRecord, d: DeliverySummary): { line: string; summary: DeliverySummary; attempt: AttemptRecord | undefined } {
    const { patch, after } = attemptChange(a, old, d);
    const line = attemptLine(a, undefined, patch).trimEnd();
    let summary = old;
    const rec = scanLine(Buffer.from(line), 0, Buffer.byteLength(line));
    if (rec?.kind !== 'a') throw new Error(`not read as an attempt: ${line}`);
    if (rec.patch) summary = applyPatch(summary, rec.patch);
    if (after) {
      const next = scanLine(Buffer.from(after.trimEnd()), 0, Buffer.byteLength(after.trimEnd()));
      if (next?.kind === 'u') summary = applyPatch(summary, next.patch);
      else if (next?.kind === 'd') summary = next.v;
      else throw new Error(`unexpected line after the attempt: ${after}`);
    }
    return { line, summary, attempt: parseAttempt(line)?.attempt };
  }

  it('is small for the usual change and gives back the new summary exactly', () => {
    const a = attempt({ next_attempt_at: null });
    const d = delivery({ status: 'succeeded', attempts: 1, last_attempt_at: a.started_at, last_status_code: 200, last_duration_ms: 12 });
    const { line, summary, attempt: back } = replayed(a, d);
    expect(line.endsWith(']}') ? '' : line.slice(line.lastIndexOf(']') + 1)).toMatch(/^,"m":\d+}$/);
    expectExact(summary, d);
    expectExact(back, a);
  });

  it('gives back the new summary and the attempt exactly, whatever changed (property)', () => {
    const statuses = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
    const value = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -2, max: 600 }),
      fc.constantFrom('2025-01-01T00:00:01.000Z', 'x', 'ECONNREFUSED'),
    );
    const arb = fc.record({
      succeeded: fc.boolean(),
      attemptNo: fc.integer({ min: 1, max: 9 }),
      status: fc.oneof(fc.constant(null), fc.integer({ min: 100, max: 599 })),
      error: fc.oneof(fc.constant(null), fc.constant('ECONNREFUSED')),
      next: fc.oneof(fc.constant(null), fc.constant(1_700_000_000_000)),
      dStatus: fc.constantFrom(...statuses),
      dAttempts: fc.integer({ min: 0, max: 9 }),
      dLast: fc.constantFrom(null, '2025-01-01T00:00:01.000Z', '2025-01-01T00:00:09.000Z'),
      dCode: value,
      dErr: value,
      dDur: fc.oneof(fc.constant(null), fc.constant(12), fc.integer({ min: 0, max: 99 })),
      dNext: fc.constantFrom(null, 1_700_000_000_000, 5),
      extra: fc.option(fc.constantFrom({ last_tunnel_offline: true }, { imported: true, '7': 'x' }, { note: [1] }), { nil: undefined }),
    });
    fc.assert(
      fc.property(arb, (g) => {
        const a = attempt({
          attempt: g.attemptNo,
          succeeded: g.succeeded,
          error: g.error,
          next_attempt_at: g.next,
          response: g.status === null ? null : { status: g.status, headers: {}, body: '', truncated: false },
        });
        const d = {
          ...old,
          status: g.dStatus,
          attempts: g.dAttempts,
          last_attempt_at: g.dLast,
          last_status_code: g.dCode,
          last_error: g.dErr,
          last_duration_ms: g.dDur,
          next_attempt_at: g.dNext,
          ...g.extra,
        } as DeliverySummary;
        const { summary, attempt: back } = replayed(a, d);
        expectExact(summary, d);
        expectExact(back, a);
      }),
      { seed: 21, numRuns: 1500 },
    );
  });
});

describe('event summaries', () => {
  const scanned = (line: string) => {
    const rec = scanLine(Buffer.from(line.trimEnd()), 0, Buffer.byteLength(line.trimEnd()));
    return rec?.kind === 'e' ? rec.v : undefined;
  };

  it('are written as an array of their values when that reads back exactly, else as they are', () => {
    const usual = event({ id: 'evt_9', document_id: null });
    expect(eventLine(3, usual, '{}')).toContain('"v":["evt_9","co_a","document.updated","2025-01-01T00:00:00.000Z",null,null]');
    const odd = [
      { ...event(), imported: true, origin: 'check' },
      Object.assign({ type: 'document.sent' }, event()), // keys in another order
      { ...event(), timestamp: 'not a time', extra: { nested: ['x', 1] } },
      JSON.parse(
        '{"id":"evt_1","company_id":"co_a","type":"t","timestamp":"t","document_id":null,"subscription_id":null,"__proto__":"p","7":"x"}',
      ),
    ];
    for (const e of [usual, ...odd]) expectExact(scanned(eventLine(1, e, 'body')), e);
    expect(eventLine(1, odd[1], '')).toContain('"v":{');
  });

  it('read back exactly for generated summaries (property)', () => {
    const value = fc.oneof(fc.string(), fc.constant(null), fc.integer(), fc.boolean());
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value, { maxKeys: 3 }), fc.array(value, { minLength: 5, maxLength: 5 }), (extra, vals) => {
        const e = Object.assign(
          { id: 'evt_x', company_id: vals[0], type: vals[1], timestamp: vals[2], document_id: vals[3], subscription_id: vals[4] },
          extra,
        );
        if (typeof e.id !== 'string') return;
        expectExact(scanned(eventLine(1, e as never, 'b')), e);
      }),
      { seed: 31, numRuns: 1500 },
    );
  });
});

describe('event bodies', () => {
  const body = (b: string) => parseEventBody(eventLine(1, event(), b).trimEnd());

  it('read back exactly, deflated or not', () => {
    const samples = [
      '',
      'x',
      longBody,
      JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => `item ${i} é 😀`) }),
      randomBytes(3000).toString('base64'), // incompressible: kept as a string
      '\ud800 a lone surrogate in a long body '.repeat(20), // UTF-8 cannot hold it: kept as a string
      'line\nbreaks\u2028and\u2029separators '.repeat(30),
    ];
    for (const s of samples) expect(body(s)).toBe(s);
    expect(eventLine(1, event(), samples[3])).toContain('"z":"');
    expect(eventLine(1, event(), samples[4])).toContain('"b":"');
    expect(eventLine(1, event(), samples[5])).toContain('"b":"');
  });

  it('read back exactly for generated bodies (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), fc.nat(400), (s, pad) => {
        const b = s + 'w'.repeat(pad);
        expect(body(b)).toBe(b);
      }),
      { seed: 4, numRuns: 200 },
    );
  });
});
