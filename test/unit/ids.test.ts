import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { newId } from '../../src-main/backend/ids.js';

describe('newId', () => {
  it('is the prefix, an underscore and 22 base62 characters, different every time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const id = newId('msg');
      expect(id).toMatch(/^msg_[0-9A-Za-z]{22}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(5000);
    expect(newId('whsec')).toMatch(/^whsec_[0-9A-Za-z]{22}$/);
  });

  it('takes a prefix longer than its scratch buffer', () => {
    const prefix = 'p'.repeat(80);
    expect(newId(prefix)).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{22}$`));
    expect(newId('evt')).toMatch(/^evt_[0-9A-Za-z]{22}$/); // the scratch buffer is intact
  });

  it('keeps an id as one flat string (a pending delivery holds its id until it ends)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const n = 50_000;
    const kept: string[] = new Array<string>(n);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < n; i++) kept[i] = newId('msg');
    gc();
    const perId = (process.memoryUsage().heapUsed - before) / n;
    // A 26-character one-byte string is 40 bytes (+4 for its slot in `kept`); built with
    // `+=` a character at a time it was a chain of 22 pieces, ~480 bytes.
    expect(perId).toBeLessThan(100);
    expect(kept[n - 1]).toMatch(/^msg_/);
  });
});
