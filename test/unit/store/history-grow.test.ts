// How the history index's columns grow (store/history/columns.ts grown/grownBytes): in
// place, inside a resizable buffer, so growing copies nothing and leaves no old copy
// behind (docs/storage.md, "The delivery history in memory"); past its reservation a
// column moves once, keeping every entry. Checked on the functions and on a delivery
// table filled through many growths.
import { describe, expect, it } from 'vitest';
import { grown, grownBytes, latin1Of, nextCapacity, RESERVED_ENTRIES } from '../../../src-main/backend/store/history/columns.js';
import { DeliveryTable } from '../../../src-main/backend/store/history/delivery-table.js';
import { IdInterner } from '../../../src-main/backend/store/history/id-interner.js';
import { Interner } from '../../../src-main/backend/store/history/interner.js';
import { LocPool } from '../../../src-main/backend/store/history/loc-pool.js';
import { decodeRow, deliveryColumns } from '../../../src-main/backend/store/history/delivery-row.js';
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
    expect(latin1Of(a, 0, 7)).toBe('msg_abc');
    a.set(Buffer.from('msg_def', 'latin1'), 100);
    const b = grownBytes(a, 107, 1 << 20);
    // The same array (a plain Uint8Array over the resizable buffer, never a new Buffer: columns.ts says why).
    expect(b).toBe(a);
    expect(b).not.toBeInstanceOf(Buffer);
    expect(b.length).toBe(1 << 20);
    expect(latin1Of(b, 0, 7) + latin1Of(b, 100, 107)).toBe('msg_abcmsg_def');
  });

  it('reads Latin-1 text back from bytes, of any length', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => String.fromCharCode(32 + (i % 224))).join('');
    const bytes = grownBytes(new Uint8Array(0), 0, 20_000);
    bytes.set(Buffer.from(text, 'latin1'), 5);
    expect(latin1Of(bytes, 5, 5 + text.length)).toBe(text);
    expect(latin1Of(bytes, 5, 5)).toBe('');
  });
});

describe('delivery table growth', () => {
  it('keeps one array per column from its first growth to 40,000 rows, every row read back', () => {
    const strs = new Interner();
    const table = new DeliveryTable(strs, new IdInterner(), new LocPool());
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

describe('delivery table bulk import (a sidecar at start-up)', () => {
  it('imports a run of 40,000 rows in pieces: every row, id and string reference as one by one', () => {
    const n = 40_000;
    const strings = [
      'co_1',
      'document.updated',
      'HTTP 500',
      ...Array.from({ length: 7 }, (_, i) => `sub_${i}`),
      ...Array.from({ length: 7 }, (_, i) => `http://h/${i}`),
    ];
    const src = deliveryColumns(n);
    const idText: string[] = [];
    for (let k = 0; k < n; k++) {
      src.seq[k] = 10 + k;
      src.created[k] = 1_767_225_600_000 + k;
      src.lastAt[k] = k % 3 === 0 ? NaN : 1_767_225_600_100 + k;
      src.code[k] = k % 3 === 0 ? NaN : 200;
      src.dur[k] = k % 3 === 0 ? NaN : k % 50;
      src.next[k] = NaN;
      src.attempts[k] = k % 3 === 0 ? 0 : 1;
      src.status[k] = k % 3 === 0 ? 0 : 1;
      src.company[k] = 0;
      src.type[k] = 1;
      src.err[k] = k % 5 === 0 ? 2 : -1;
      src.sub[k] = 3 + (k % 7);
      src.url[k] = 10 + (k % 7);
      src.doc[k] = -1;
      src.shape[k] = -1;
      src.evt[k] = k >> 1;
      idText.push(`msg_${String(k).padStart(27, '0')}`);
    }
    const bytes = Buffer.from(idText.join(''), 'latin1');
    const at = Float64Array.from(idText, (_, k) => 31 * k);
    const len = new Int32Array(n).fill(31);
    const strs = new Interner();
    const eventIds = new IdInterner();
    const table = new DeliveryTable(strs, eventIds, new LocPool());
    // The rows' sidecar, for the cold fields of those not pending (read back from it, not kept).
    table.coldSource = (segId) => {
      expect(segId).toBe(4);
      // No attempts in it: every row's range of attempt locations is empty.
      return {
        rows: src,
        strings,
        aFirst: new Int32Array(n + 1),
        aOff: new Float64Array(0),
        aLen: new Int32Array(0),
        aItem: new Int32Array(0),
        ids: { bytes, at, len },
      };
    };
    // Two rows first, so the run's slots start past 0.
    for (const id of ['msg_first_a', 'msg_first_b'])
      table.insert(
        0,
        decodeRow(
          src,
          1,
          id,
          (x) => strings[x],
          () => 'evt_first',
        ),
        4,
      );
    const strMap = Int32Array.from(strings, (v) => strs.add(v));
    const evtMap = Int32Array.from({ length: n / 2 }, (_, e) => eventIds.add(`evt_${e}`));
    const ks = Array.from({ length: n }, (_, k) => k);
    const slots = table.importRows(src, ks, { bytes, at, len }, 4, strMap, evtMap);
    expect([slots[0], slots[n - 1]]).toEqual([2, n + 1]);
    for (let k = 0; k < n; k += 997) {
      const want = decodeRow(
        src,
        k,
        idText[k],
        (x) => strings[x],
        (e) => `evt_${e}`,
      );
      expect(table.read(table.slot(idText[k]) as number)).toEqual(want);
    }
    expect(table.read(slots[n - 1]).id).toBe(idText[n - 1]);
    // Each string's references: the one made above plus one per row using it in memory
    // (an error message is a cold field: only the pending rows, k % 3 === 0, keep theirs).
    expect(strs.refCount(strMap[2])).toBe(1 + Math.ceil(n / 15));
    expect(table.cold.size).toBe(2 + Math.ceil(n / 3));
    expect(strs.refCount(strMap[3])).toBe(1 + Math.ceil(n / 7)); // sub_0
    expect(strs.refCount(strMap[4])).toBe(1 + 2 + Math.ceil((n - 1) / 7)); // sub_1, also the two rows inserted first
    expect(eventIds.refCount(evtMap[123])).toBe(1 + 2);
  });
});
