// The closing segment's own ids as the foreign-records scan looks them up (history/own-ids.ts):
// from the sidecar's id bytes and wide ids, the same answers as a Set of the ids, for ids of
// any characters, lengths that collide, and ids that differ in one byte.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OwnIds } from '../../../src-main/backend/store/history/own-ids.js';

/** The sidecar's form of `ids` (history/id-table.ts rowsOf): Latin-1 bytes one after the other, -1 and a wide entry for the others. */
function sidecarIds(ids: string[]) {
  const wide: [number, string][] = [];
  const len = new Int32Array(ids.length);
  const parts: Buffer[] = [];
  ids.forEach((id, k) => {
    if ([...id].some((c) => c.charCodeAt(0) > 0xff)) {
      wide.push([k, id]);
      len[k] = -1;
    } else {
      parts.push(Buffer.from(id, 'latin1'));
      len[k] = id.length;
    }
  });
  return new OwnIds(Buffer.concat(parts), len, wide);
}

const idChars = fc.constantFrom('a', 'b', '0', '_', 'é', 'ÿ', '✓', '\u0100');
const id = fc.array(idChars, { minLength: 1, maxLength: 6 }).map((cs) => `msg_${cs.join('')}`);

describe('a closing segment`s own ids', () => {
  it('are found exactly as a Set of them finds them (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(id, { maxLength: 80 }), fc.array(id, { maxLength: 80 }), (own, probes) => {
        const ids = sidecarIds(own);
        const set = new Set(own);
        for (const p of [...own, ...probes, '', 'msg_', 'msg_a\u0000']) expect(ids.has(p), p).toBe(set.has(p));
      }),
    );
  });

  it('tell 25,000 service-made ids from others of the same length', () => {
    const own = Array.from({ length: 25_000 }, (_, i) => `msg_${String(i * 7).padStart(26, '0')}`);
    const ids = sidecarIds(own);
    expect(own.every((s) => ids.has(s))).toBe(true);
    expect(own.some((s) => ids.has(s.replace(/.$/, (c) => String((Number(c) + 1) % 10))))).toBe(false);
  });
});
