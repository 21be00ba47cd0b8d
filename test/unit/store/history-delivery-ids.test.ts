// A closed delivery's id is found by a key of its bytes, then checked against the bytes
// of its row in its segment's index file (store/history/delivery-ids.ts). Two ids can
// share a key: the lookup must still give each its own slot, and none to an id that only
// shares the key. The table's host is a stand-in for the DeliveryTable (its cold column
// and base segments) and the index files (their ids as bytes), as the real ones hold them.
import { describe, expect, it } from 'vitest';
import { DeliveryIds } from '../../../src-main/backend/store/history/delivery-ids.js';
import { evictedRef, NO_ROW, type ColdSource } from '../../../src-main/backend/store/history/cold-rows.js';
import { idKey } from '../../../src-main/backend/store/history/closed-ids.js';

/** A segment's index file as ColdSource: only its ids are read here. */
function sidecar(ids: string[]): ColdSource {
  const at = new Float64Array(ids.length);
  for (let k = 1; k < ids.length; k++) at[k] = at[k - 1] + ids[k - 1].length;
  const ids_ = { bytes: Buffer.from(ids.join(''), 'latin1'), at, len: Int32Array.from(ids, (id) => id.length) };
  return { ids: ids_ } as unknown as ColdSource;
}

describe('closed delivery ids', () => {
  it('gives each id sharing a key its own slot, none to an id that only shares the key, and takes one back into memory', () => {
    const files = new Map([
      [1, sidecar(['msg_a0', 'msg_a1', 'msg_a2'])],
      [2, sidecar(['msg_b0', 'msg_b1'])],
    ]);
    const c = { cold: new Int32Array(8).fill(NO_ROW), baseSeg: new Int32Array(8) };
    const ids = new DeliveryIds({ c, end: 8, coldSource: (seg) => files.get(seg) as ColdSource });
    // Slots 0-2: rows 0-2 of segment 1; slots 3-4: rows 0-1 of segment 2; all under ONE key
    // but for slot 4 (its own), as if every one of them collided.
    const shared = idKey('msg_a1');
    const place = [
      [0, 1, 0],
      [1, 1, 1],
      [2, 1, 2],
      [3, 2, 0],
      [4, 2, 1],
    ];
    ids.reserveClosed(place.length);
    for (const [s, seg, k] of place) {
      c.baseSeg[s] = seg;
      c.cold[s] = evictedRef(k);
      ids.addClosed(s === 4 ? idKey('msg_b1') : shared, s);
    }
    expect(ids.size).toBe(5);
    expect(ids.inMemory).toBe(0);
    // Ids whose key is the shared one (as if they collided) are looked up under it: the bytes decide.
    const under = (id: string) => ids.getBytes(Buffer.from(id, 'latin1'), 0, id.length, shared);
    expect(['msg_a0', 'msg_a1', 'msg_a2', 'msg_b0', 'msg_b1', 'msg_a3'].map(under)).toEqual([0, 1, 2, 3, undefined, undefined]);
    expect(ids.get('msg_a1')).toBe(1);
    expect(ids.get('msg_b1')).toBe(4);
    expect(ids.get('msg_a3')).toBeUndefined();
    const bytes = Buffer.from('xxmsg_a1', 'latin1');
    expect(ids.getBytes(bytes, 2, 6)).toBe(1);
    expect(ids.getBytes(bytes, 2, 6, shared)).toBe(1);
    expect(ids.getBytes(Buffer.from('msg_a9'), 0, 6, shared)).toBeUndefined();
    expect([0, 1, 2, 3, 4].map((s) => ids.idOf(s))).toEqual(['msg_a0', 'msg_a1', 'msg_a2', 'msg_b0', 'msg_b1']);
    expect(ids.holds(3, 'msg_b0')).toBe(true);
    expect(ids.holds(3, 'msg_b1')).toBe(false);
    expect(ids.rowsOf([4, 0]).bytes.toString('latin1')).toBe('msg_b1msg_a0');

    // Slot 1 changes: its id comes back into memory (as cold row 0's), found there from now on.
    ids.back(1, 0);
    c.cold[1] = 0;
    expect(ids.inMemory).toBe(1);
    expect(ids.size).toBe(5);
    expect(ids.get('msg_a1')).toBe(1);
    expect(ids.idOf(1)).toBe('msg_a1');
    // Slot 2 removed (retention): gone once swept, and a stale entry is never taken for it meanwhile.
    ids.delete(2);
    c.cold[2] = NO_ROW;
    expect(ids.size).toBe(4);
    expect(ids.has(2)).toBe(false);
    ids.sweep();
    expect(ids.idOf(2)).toBeUndefined();
    // Its slot reused by a closed delivery of another id under the same key: found as that one only.
    c.cold[2] = evictedRef(0);
    c.baseSeg[2] = 2;
    ids.reserveClosed(1);
    ids.addClosed(shared, 2);
    expect(['msg_a0', 'msg_a2'].map(under)).toEqual([0, undefined]);
    expect([2, 3]).toContain(under('msg_b0')); // two slots hold msg_b0 now (a stand-in's doing): either is its
    expect(ids.idOf(2)).toBe('msg_b0');
    expect(ids.holds(2, 'msg_a2')).toBe(false);
    // The id back in memory leaves again with its cold row (a rotation's eviction).
    const key = ids.leave(1, 0, files.get(1) as ColdSource, 1);
    expect(key).toBe(shared);
    c.cold[1] = evictedRef(1);
    ids.addClosed(key, 1);
    expect([ids.inMemory, ids.get('msg_a1')]).toEqual([0, 1]);
  });
});
