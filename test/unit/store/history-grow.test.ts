// How the history index's columns grow (store/history/columns.ts grown/grownBytes): in
// place, inside a resizable buffer, so growing copies nothing and leaves no old copy
// behind (docs/storage.md, "The delivery history in memory"); past its reservation a
// column moves once, keeping every entry. Checked on the functions and on a delivery
// table filled through many growths.
import { describe, expect, it } from 'vitest';
import { grown, grownBytes, nextCapacity, RESERVED_ENTRIES } from '../../../src-main/backend/store/history/columns.js';
import { DeliveryTable } from '../../../src-main/backend/store/history/delivery-table.js';
import { Interner } from '../../../src-main/backend/store/history/interner.js';
import { LocPool } from '../../../src-main/backend/store/history/loc-pool.js';
import type { DeliverySummary } from '../../../src-main/backend/store/history-types.js';

const resizable = (col: { buffer: ArrayBufferLike }) => (col.buffer as ArrayBuffer & { resizable?: boolean }).resizable === true;

describe('column growth', () => {
  it('moves a plain column into a resizable buffer once, then grows that same array in place', () => {
    const plain = Float64Array.from([1.5, -2, NaN]);
    const first = grown(plain, 1024);
    expect(first).not.toBe(plain);
    expect(resizable(first)).toBe(true);
    expect(first.length).toBe(1024);
    expect(Array.from(first.subarray(0, 4))).toEqual([1.5, -2, NaN, 0]);
    first[1023] = 7;
    let col = first;
    for (let cap = 1024; cap < 200_000; cap = nextCapacity(cap)) {
      col = grown(col, nextCapacity(cap));
      expect(col).toBe(first);
    }
    expect(col.length).toBeGreaterThanOrEqual(200_000);
    expect([col[0], col[1], col[1023], col[1024], col[col.length - 1]]).toEqual([1.5, -2, 7, 0, 0]);
  });

  it('copies every entry into a larger reservation when one is outgrown', () => {
    const col = grown(new Uint8Array(0), 16);
    col.set([1, 2, 3]);
    const reserved = (col.buffer as ArrayBuffer & { maxByteLength: number }).maxByteLength;
    expect(reserved).toBe(RESERVED_ENTRIES);
    const bigger = grown(col, reserved + 5);
    expect(bigger).not.toBe(col);
    expect(resizable(bigger)).toBe(true);
    expect(bigger.length).toBe(reserved + 5);
    expect(Array.from(bigger.subarray(0, 4))).toEqual([1, 2, 3, 0]);
    expect(grown(bigger, reserved + 6)).toBe(bigger);
  });

  it('grows a byte buffer in place, keeping the bytes in use', () => {
    const start = Buffer.from('msg_abc', 'latin1');
    const a = grownBytes(start, 7, 1 << 16);
    expect(a.length).toBe(1 << 16);
    expect(a.toString('latin1', 0, 7)).toBe('msg_abc');
    a.write('msg_def', 100, 'latin1');
    const b = grownBytes(a, 107, 1 << 20);
    expect(b.buffer).toBe(a.buffer);
    expect(b.length).toBe(1 << 20);
    expect(b.toString('latin1', 0, 7) + b.toString('latin1', 100, 107)).toBe('msg_abcmsg_def');
  });
});

describe('delivery table growth', () => {
  it('keeps one array per column from its first growth to 40,000 rows, every row read back', () => {
    const strs = new Interner();
    const table = new DeliveryTable(strs, new Interner(), new LocPool());
    const summary = (i: number): DeliverySummary => ({
      id: `msg_${String(i).padStart(27, '0')}`,
      event_id: `evt_${String(i >> 2).padStart(27, '0')}`,
      event_type: 'document.updated',
      subscription_id: `sub_${i % 7}`,
      company_id: 'co_1',
      document_id: i % 3 === 0 ? null : `doc_${i % 50}`,
      url: `http://127.0.0.1:9/hook/${i % 7}`,
      status: i % 5 === 0 ? 'failed' : 'succeeded',
      attempts: 1 + (i % 4),
      created_at: new Date(1_767_225_600_000 + i * 1000).toISOString(),
      last_attempt_at: new Date(1_767_225_600_000 + i * 1000 + 37).toISOString(),
      last_status_code: i % 5 === 0 ? 500 : 200,
      last_duration_ms: i % 97,
      last_error: i % 5 === 0 ? 'HTTP 500' : null,
      next_attempt_at: null,
    });
    table.insert(0, summary(0), 1);
    const first = { ...table.c };
    for (let i = 1; i < 40_000; i++) table.insert(i, summary(i), 1);
    for (const [name, col] of Object.entries(table.c)) {
      expect(col, name).toBe(first[name as keyof typeof first]);
      expect(resizable(col), name).toBe(true);
    }
    for (const i of [0, 1, 1023, 1024, 24_321, 39_999]) expect(table.read(table.slot(summary(i).id) as number)).toEqual(summary(i));
  });
});
