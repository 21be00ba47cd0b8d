// A delivery's base line is encoded straight into bytes (history/summary-bytes.ts). The
// bytes on disk must not change: they are compared, to the byte, with the text encoder's
// line (compact.ts encodeSummary, which later whole-summary lines still use) for the
// engine's summaries, odd shapes and generated values.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deliveryBaseBytes, FanoutLines, writeSummary } from '../../../src-main/backend/store/history/summary-bytes.js';
import { decodeSummary, encodeSummary } from '../../../src-main/backend/store/history/compact.js';
import { LineBytes } from '../../../src-main/backend/store/history/line-bytes.js';
import type { DeliverySummary } from '../../../src-main/backend/store/history-types.js';
import { delivery } from './history-fixtures.js';

const textLine = (seq: number, d: DeliverySummary) => `{"t":"d","s":${seq},"c":1,"w":${encodeSummary(d)}}\n`;
const bytesLine = (seq: number, d: DeliverySummary) => {
  const out = deliveryBaseBytes(seq, d);
  return Buffer.from(out.buf.subarray(0, out.n));
};
const expectSame = (seq: number, d: DeliverySummary) => expect(bytesLine(seq, d).toString('utf8')).toBe(textLine(seq, d));

/** Strings and values for a fan-out's summaries (binary and any text, a quote and backslash, other JSON values, values JSON leaves out). */
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 90 }), fc.string({ maxLength: 120 }), fc.constant('"\\\u0000'));
const value = fc.oneof(text, fc.constant(null), fc.integer(), fc.double(), fc.constant(-0), fc.constantFrom(undefined, { k: 'v' }));

describe('delivery base lines in bytes', () => {
  it('are the text encoder`s bytes for the engine`s summaries and odd shapes', () => {
    const base = delivery({ id: 'msg_SZORVaR0k5SqymOhSLRInN', next_attempt_at: 1_795_709_538_201 });
    const reordered = Object.assign({ status: 'pending' }, base);
    const withUndefined = { ...base, last_error: undefined } as unknown as DeliverySummary;
    const cases: DeliverySummary[] = [
      base,
      delivery(),
      { ...base, imported: true, last_tunnel_offline: true },
      { ...base, origin: 'check', document_id: null, url: 'http://h/"q" é 😀 \ud800' },
      { ...base, status: 'failed', attempts: 7, last_status_code: 503, last_error: 'ECONNRESET: "x"\n', last_duration_ms: 1.25 },
      { ...base, last_duration_ms: Number.NaN, next_attempt_at: Infinity } as DeliverySummary,
      { ...base, last_duration_ms: -0, attempts: 1e21 } as DeliverySummary,
      { ...base, last_error: { nested: [1, 'two'] } } as unknown as DeliverySummary,
      { ...base, url: 'u'.repeat(300) },
      reordered,
      withUndefined,
      { ...base, later: { a: 1 } } as DeliverySummary,
    ];
    for (const d of cases) for (const seq of [1, 25_001, 1_000_000_007]) expectSame(seq, d);
    expect(bytesLine(1, base).toString()).toContain('"w":["msg_');
    expect(bytesLine(1, reordered).toString()).toContain('"w":{"status"');
    expect(bytesLine(1, withUndefined).toString()).toContain('"w":{"id"'); // a value JSON leaves out: the whole object
    expect(decodeSummary(JSON.parse(bytesLine(1, base).toString()).w)).toEqual(base);
  });

  it('are the text encoder`s bytes for generated summaries (property)', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 90 }), fc.string({ maxLength: 200 }), fc.constant('"\\\u0000'));
    const value = fc.oneof(
      text,
      fc.constant(null),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constantFrom(undefined, [1, 'x'], { k: 'v' }),
    );
    const keys = Object.keys(delivery());
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(keys.length - 1), value), { maxLength: 6 }), fc.nat(), fc.boolean(), (changes, seq, extra) => {
        const d: Record<string, unknown> = { ...delivery() };
        for (const [i, v] of changes) d[keys[i]] = v;
        if (extra) d.imported = true;
        expectSame(seq, d as unknown as DeliverySummary);
      }),
      { seed: 7, numRuns: 600 },
    );
  });

  it('write after what the buffer holds already, and leave nothing behind when they fall back to plain JSON', () => {
    const out = new LineBytes(4); // small: grows on the way
    out.ascii('<');
    writeSummary(out, { ...delivery(), url: undefined } as unknown as DeliverySummary);
    expect(out.text()).toBe('<' + encodeSummary({ ...delivery(), url: undefined } as unknown as DeliverySummary));
  });

  it('of a fan-out, written from its first, are the text encoder`s bytes, and copied only for summaries that differ in id, subscription and url (property)', () => {
    const keys = Object.keys(delivery());
    const own = new Set(['id', 'subscription_id', 'url']);
    // Each next summary: the first's with its own three strings, perhaps one other value changed, perhaps a later key.
    const next = fc.record({
      id: text,
      sub: text,
      url: text,
      change: fc.option(fc.tuple(fc.nat(keys.length - 1), value)),
      extra: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(keys.length - 1), value), { maxLength: 3 }),
        fc.array(next, { maxLength: 8 }),
        fc.nat(),
        (firstChanges, rest, seq0) => {
          const first: Record<string, unknown> = { ...delivery() };
          for (const [i, v] of firstChanges) first[keys[i]] = v;
          const lines = new FanoutLines().reset();
          const all = [
            first,
            ...rest.map((r) => {
              const d: Record<string, unknown> = { ...first, id: r.id, subscription_id: r.sub, url: r.url };
              if (r.change) d[keys[r.change[0]]] = r.change[1];
              if (r.extra) d.imported = true;
              return d;
            }),
          ] as unknown as DeliverySummary[];
          let template: DeliverySummary | null = null;
          all.forEach((d, k) => {
            const out = lines.line(seq0 + k, d, k + 1 < all.length);
            expect(Buffer.from(out.buf.subarray(0, out.n)).toString('utf8')).toBe(textLine(seq0 + k, d));
            // Copied exactly when d has the template's values (and keys) but for the three strings.
            const t = template as Record<string, unknown> | null;
            const same =
              t !== null &&
              JSON.stringify(Object.keys(d)) === JSON.stringify(keys) &&
              keys.every((key) =>
                own.has(key)
                  ? typeof (d as unknown as Record<string, unknown>)[key] === 'string'
                  : Object.is((d as unknown as Record<string, unknown>)[key], t[key]),
              );
            expect(lines.copied).toBe(same);
            if (!lines.copied) template = lines.ready ? d : null;
          });
        },
      ),
      { seed: 11, numRuns: 400 },
    );
  });

  it('of a fan-out written from one object changed in its id, subscription and url only (recordFanout), and told so, are the text encoder`s bytes (property)', () => {
    const keys = Object.keys(delivery());
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(keys.length - 1), value), { maxLength: 3 }),
        fc.array(fc.record({ id: text, sub: text, url: text }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (firstChanges, targets, seq0) => {
          const v: Record<string, unknown> = { ...delivery() };
          for (const [i, x] of firstChanges) v[keys[i]] = x;
          const lines = new FanoutLines().reset();
          targets.forEach((r, k) => {
            Object.assign(v, { id: r.id, subscription_id: r.sub, url: r.url });
            const d = v as unknown as DeliverySummary;
            const templateBefore = lines.ready;
            const out = lines.line(seq0 + k, d, k + 1 < targets.length, k > 0);
            expect(Buffer.from(out.buf.subarray(0, out.n)).toString('utf8')).toBe(textLine(seq0 + k, d));
            expect(lines.copied).toBe(k > 0 && templateBefore);
          });
        },
      ),
      { seed: 12, numRuns: 300 },
    );
  });

  it('of a fan-out keep the first`s values, not its object: changing it later is not copied', () => {
    const lines = new FanoutLines().reset();
    const first = delivery({ id: 'msg_a', next_attempt_at: 5 });
    lines.line(1, first, true);
    first.status = 'failed'; // a caller's object changed after its line was written
    const d = delivery({ id: 'msg_b', subscription_id: 'wh_2', url: 'http://h/2', next_attempt_at: 5 });
    const out = lines.line(2, d, false);
    expect(lines.copied).toBe(true);
    expect(Buffer.from(out.buf.subarray(0, out.n)).toString('utf8')).toBe(textLine(2, d));
  });
});
