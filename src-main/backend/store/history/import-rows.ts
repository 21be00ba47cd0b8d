// A closed segment's sidecar rows as new slots of the DeliveryTable, in bulk (start-up,
// sidecar.ts applySidecar): column by column, so a million rows cost a few copies rather
// than a million objects. Only the hot columns are copied; a row's cold fields, its id's
// bytes and its attempt locations stay in the sidecar (cold-rows.ts: the slot refers to its
// row there; delivery-ids.ts), except a pending delivery's, which changes and so is given
// a cold row of its own.
import { idKeyBytes } from './closed-ids.js';
import type { Column } from './columns.js';
import { evictedRef } from './cold-rows.js';
import { COLD_NUMBER_COLUMNS, COLD_STRING_COLUMNS, type RowColumns } from './delivery-row.js';
import type { DeliveryTable } from './delivery-table.js';
import type { IdInterner } from './id-interner.js';
import type { IdBytes } from './id-table.js';
import type { Interner } from './interner.js';

/** Hot columns copied as they are. */
const HOT_NUMBERS = ['seq', 'created', 'status', 'flags'] as const;
/** Hot columns of numbers in the string interner (-1: null). */
const HOT_STRINGS = ['sub', 'company', 'doc'] as const;

export interface ImportedRows {
  src: RowColumns;
  ks: number[];
  ids: IdBytes;
  segId: number;
  /** The sidecar's string and event-id numbers as the table's (references counted here). */
  strMap: Int32Array;
  evtMap: Int32Array;
}

/** Rows `ks` of `src` as new slots of `t`, their ids given as Latin-1 bytes; returns the slots. */
export function importRows(t: DeliveryTable, names: { strs: Interner; eventIds: IdInterner }, rows: ImportedRows): number[] {
  const { src, ks, ids, segId, strMap, evtMap } = rows;
  const slots = ks.map(() => t.allocSlot());
  // At start-up the rows and the slots are both runs: ids and whole columns are copied at
  // once (the columns' resizable buffers are slower to index one entry at a time).
  const runs = ks.length > 0 && ks.every((k, j) => k === ks[0] + j && slots[j] === slots[0] + j);
  const { c } = t;
  if (runs) {
    const [s0, s1] = [slots[0], slots[0] + slots.length];
    c.baseSeg.fill(segId, s0, s1);
    c.aHead.fill(-1, s0, s1);
  } else
    slots.forEach((s) => {
      c.baseSeg[s] = segId;
      c.aHead[s] = -1;
    });
  for (const name of HOT_NUMBERS) {
    if (runs) copyRun(src[name], c[name], ks[0], slots[0], ks.length);
    else for (let j = 0; j < ks.length; j++) c[name][slots[j]] = src[name][ks[j]];
  }
  const strUses = new Int32Array(strMap.length);
  for (const name of HOT_STRINGS) mapColumn(src[name], c[name], ks, slots, strMap, strUses, runs);
  importCold(t, src, ks, slots, strMap, strUses);
  importIds(t, ks, slots, ids);
  strUses.forEach((n, l) => n > 0 && names.strs.retain(strMap[l], n));
  const evtUses = new Int32Array(evtMap.length);
  mapColumn(src.evt, c.evt, ks, slots, evtMap, evtUses, runs);
  evtUses.forEach((n, l) => n > 0 && names.eventIds.retain(evtMap[l], n));
  return slots;
}

/**
 * Each row's id: kept in the sidecar (only its key in memory: delivery-ids.ts) with its
 * cold fields, or in memory for a pending delivery. The rows' ids are all Latin-1 (the
 * loader gives a wide one its own path).
 */
function importIds(t: DeliveryTable, ks: number[], slots: number[], ids: IdBytes): void {
  const { c } = t;
  t.ids.reserveClosed(ks.length);
  for (let j = 0; j < ks.length; j++) {
    const k = ks[j];
    const s = slots[j];
    const key = ids.key ? ids.key[k] : idKeyBytes(ids.bytes, ids.at[k], ids.len[k]);
    if (c.cold[s] >= 0) t.ids.setBytes(ids.bytes, ids.at[k], ids.len[k], s, key);
    else t.ids.addClosed(key, s);
  }
}

/** Each row's cold fields: a reference to its sidecar row, or a cold row of its own for a pending delivery. */
function importCold(t: DeliveryTable, src: RowColumns, ks: number[], slots: number[], strMap: Int32Array, strUses: Int32Array): void {
  const { c } = t;
  const { k: kc } = t.cold;
  for (let j = 0; j < ks.length; j++) {
    const [k, s] = [ks[j], slots[j]];
    if (src.status[k] !== 0) {
      c.cold[s] = c.aHead[s] = evictedRef(k); // its attempts too: applySidecar makes no chain for it
      continue;
    }
    const r = t.cold.alloc();
    c.cold[s] = r;
    for (const name of COLD_NUMBER_COLUMNS) kc[name][r] = src[name][k];
    for (const name of COLD_STRING_COLUMNS) {
      const l = src[name][k];
      if (l >= 0) strUses[l]++;
      kc[name][r] = l < 0 ? -1 : strMap[l];
    }
  }
}

function mapColumn(
  from: Int32Array,
  to: Int32Array,
  ks: number[],
  slots: number[],
  map: Int32Array,
  uses: Int32Array,
  runs: boolean,
): void {
  if (!runs) {
    for (let j = 0; j < ks.length; j++) {
      const l = from[ks[j]];
      if (l >= 0) uses[l]++;
      to[slots[j]] = l < 0 ? -1 : map[l];
    }
    return;
  }
  // A run is mapped into a small plain array (reused: no big block is allocated and
  // freed, docs/storage.md), a piece at a time, each piece copied in one go.
  for (let j0 = 0; j0 < ks.length; j0 += SCRATCH.length) {
    const m = Math.min(SCRATCH.length, ks.length - j0);
    for (let j = 0; j < m; j++) {
      const l = from[ks[j0 + j]];
      if (l >= 0) uses[l]++;
      SCRATCH[j] = l < 0 ? -1 : map[l];
    }
    to.set(SCRATCH.subarray(0, m), slots[j0]);
  }
}

/** mapColumn's piece: 64 KiB, under the size from which the C allocator maps blocks of their own. */
const SCRATCH = new Int32Array(16 * 1024);

function copyRun(from: Column, to: Column, k0: number, s0: number, n: number): void {
  (to as Float64Array).set((from as Float64Array).subarray(k0, k0 + n), s0);
}
