// Journal lines are encoded as bytes into a buffer the encoder reuses: they must be
// exactly the v2 line (`#2 <crc32 of the JSON's UTF-8> <JSON>\n`) that journals hold
// and recovery reads, for any text, small or larger than the kept buffer.
import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import { decodeLine, LineEncoder, type Op } from '../../../src-main/backend/store/journal-line.js';

const expected = (ops: Op[]) => {
  const json = JSON.stringify(ops);
  return Buffer.from(`#2 ${crc32(json).toString(16).padStart(8, '0')} ${json}\n`, 'utf8');
};
const doc = (id: string, title: string): Op => ['documents', id, { public_id: id, title, recipients: [], metadata: {} }];

describe('journal line encoding', () => {
  it('writes the v2 line byte for byte, and recovery decodes it, across reuses of its buffer', () => {
    const enc = new LineEncoder();
    const cases: Op[][] = [
      [doc('doc_1', 'plain')],
      [doc('doc_2', 'é ü ß — 契約 😀'), ['pending_deliveries', 'msg_1', null]],
      [doc('doc_3', 'a lone surrogate \ud800 and a quote " and a newline \n')],
      [doc('doc_4', 'x'.repeat(200_000))], // past the first buffer: a bigger one, kept
      [doc('doc_5', 'short again')],
      [doc('doc_6', '€'.repeat(2_000_000))], // 6 MB: a buffer of its own, used once
      [doc('doc_7', 'after the big one')],
    ];
    for (const ops of cases) {
      const line = enc.encode(ops);
      expect(line.equals(expected(ops))).toBe(true);
      const decoded = decodeLine(line.subarray(0, -1).toString('utf8'));
      expect(decoded).toEqual({ ops: JSON.parse(JSON.stringify(ops)) });
    }
  });

  it('reuses one buffer for the lines of a journal', () => {
    const enc = new LineEncoder();
    const a = enc.encode([doc('doc_1', 'one')]);
    const b = enc.encode([doc('doc_2', 'two')]);
    expect(b.buffer).toBe(a.buffer);
  });
});
