// A group commit's journal line is written in pieces (journal-line.ts encodeLineParts)
// rather than built as one string: the bytes on disk must be exactly those of the whole
// line (encodeLine), checksum included, whatever the records hold, and read back as the
// same changes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeLine, encodeLine, encodeLineParts, type Op } from '../../../src-main/backend/store/journal-line.js';
import { ChangeSet } from '../../../src-main/backend/store/journal.js';

const row = (i: number, extra: unknown = null): Op => [
  'pending_deliveries',
  `msg_${i}`,
  {
    id: `msg_${i}`,
    event_id: 'evt_1',
    subscription_id: `wh_${i % 50}`,
    company_id: 'co_1',
    event_type: 'document.updated',
    document_id: null,
    created_at: '2026-11-26T10:00:00.000Z',
    extra,
  },
];

const joined = (ops: Op[]) => Buffer.concat(encodeLineParts(ops));

describe('journal line in pieces', () => {
  it('is the whole line byte for byte: a fan-out commit, removals, odd text, one record bigger than a piece', () => {
    const cases: Op[][] = [
      [],
      [row(1)],
      Array.from({ length: 2500 }, (_, i) => row(i)),
      Array.from({ length: 300 }, (_, i) =>
        i % 3 === 0 ? (['pending_deliveries', `msg_${i}`, null] as Op) : row(i, 'é "q" \\ \u2028 😀 lone \ud800 \udc00 \u0000'),
      ),
      [row(1, 'x'.repeat(100_000)), row(2, '中'.repeat(40_000)), ['extensions', 'receiver', { inboxes: [] }]],
    ];
    for (const ops of cases) {
      const whole = Buffer.from(encodeLine(ops), 'utf8');
      expect(joined(ops).equals(whole), `${ops.length} ops`).toBe(true);
      const decoded = decodeLine(whole.toString('utf8').slice(0, -1));
      expect(decoded).toEqual({ ops: JSON.parse(JSON.stringify(ops)) });
    }
    // Big commits really are cut into pieces.
    expect(encodeLineParts(Array.from({ length: 2500 }, (_, i) => row(i))).length).toBeGreaterThan(10);
  });

  it('is the whole line byte for byte for any records (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 20 }), fc.option(fc.jsonValue(), { nil: null })), { maxLength: 60 }),
        (entries) => {
          const ops = entries.map(([key, rec]): Op => ['documents', key, rec === null ? null : { public_id: key, rec }]);
          expect(joined(ops).equals(Buffer.from(encodeLine(ops), 'utf8'))).toBe(true);
        },
      ),
      { seed: 26, numRuns: 300 },
    );
  });

  it("writes a group commit's changes as the whole line: each record's last state, at its first place, per collection (property)", () => {
    const record = fc.oneof(fc.constant(null), fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }), fc.constant(new Date(0)));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('pending_deliveries', 'documents', 'extensions'), fc.string({ maxLength: 12 }), record), {
          maxLength: 80,
        }),
        (changes) => {
          const set = new ChangeSet();
          const last = new Map<string, Op>();
          for (const [c, key, rec] of changes) {
            set.set(c as Op[0], key, rec);
            last.set(JSON.stringify([c, key]), [c as Op[0], key, rec]); // a Map keeps the first place, with the last value
          }
          const ops = [...new Set(changes.map(([c]) => c))].flatMap((c) => [...last.values()].filter((op) => op[0] === c));
          expect(Buffer.concat(set.toLine()).equals(Buffer.from(encodeLine(ops), 'utf8'))).toBe(true);
        },
      ),
      { seed: 7, numRuns: 300 },
    );
    // Many records: several pieces, one op bigger than a piece.
    const set = new ChangeSet();
    const ops: Op[] = Array.from({ length: 3000 }, (_, i) => row(i, i === 1500 ? '中'.repeat(40_000) : null));
    for (const [c, key, rec] of ops) set.set(c, key, rec);
    const parts = set.toLine();
    expect(parts.length).toBeGreaterThan(10);
    expect(Buffer.concat(parts).equals(Buffer.from(encodeLine(ops), 'utf8'))).toBe(true);
  });
});
