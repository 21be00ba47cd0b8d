// Long texts (a sidecar's header) are encoded in small pieces: joined, they must be the
// text's UTF-8 exactly, a surrogate pair on a piece's edge included, and each piece small.
import { describe, expect, it } from 'vitest';
import { utf8Pieces } from '../../../src-main/backend/store/utf8-pieces.js';

describe('utf8Pieces', () => {
  it('joins to the exact UTF-8 of the text, in pieces under 64 KiB', () => {
    const texts = [
      '',
      'short',
      'a'.repeat(16 * 1024 - 1) + '😀' + 'b'.repeat(20_000), // a pair across the first edge
      JSON.stringify(Array.from({ length: 30_000 }, (_, i) => `é契😀${i}`)),
      '中'.repeat(100_000),
    ];
    for (const text of texts) {
      const pieces = utf8Pieces(text);
      expect(Buffer.concat(pieces).equals(Buffer.from(text, 'utf8'))).toBe(true);
      for (const p of pieces) expect(p.length).toBeLessThan(64 * 1024);
    }
    expect(utf8Pieces('中'.repeat(100_000)).length).toBeGreaterThan(5);
  });
});
