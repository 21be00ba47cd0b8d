// A sidecar made from the history's index in two steps (docs/storage.md, "Segment
// rotation"), so that closing a segment costs the request that crosses the boundary a
// copy, not the sidecar's encoding:
// - freezeSidecar, at the close: what can still change of the segment's deliveries and
//   events is copied as it is now (each row column, one memcpy when the rows are
//   consecutive as they usually are; the summaries kept whole; the events), and the
//   interners hold every number (no string or event id is freed or reused meanwhile);
// - packSteps, later: the copies renumbered and encoded column by column (a generator:
//   one column a step), then the ids and attempt locations, which do not change for a
//   segment's deliveries once it is closed (attempts made later are in later segments
//   and are left out). steps.ts runs the steps between requests, a few ms at a
//   time; runNow at once.
// Either way the sidecar is the one the index described at the close, byte for byte.
import { isConstant } from './column-codec.js';
import { align8, constantAt, copyAt, systemMemory } from './frozen-columns.js';
import { attemptCounts, attemptLocs, coldRowsOf, maxOf, orderOf } from './frozen-loops.js';
import type { DeliverySummary, EventSummary } from '../history-types.js';
import { coldColumns, NUMBER_COLUMNS, STRING_COLUMNS, type ColdColumns, type RowColumns } from './delivery-row.js';
import { EVENT_STRING_COLUMNS, type EventRows } from './event-table.js';
import type { HistoryIndex } from './index-state.js';
import type { LocColumns } from './loc-pool.js';
import type { Loc } from './segments.js';
import { EVENT_NAMES, PackedColumns, type SidecarHeader } from './sidecar-format.js';

export type Known = Pick<SidecarHeader, 'segBytes' | 'created' | 'nextDeliverySeq' | 'nextEventSeq' | 'foreign'>;

/** A sidecar made from an index: its header and its columns already encoded (what it keeps until written), its ids. */
export interface PackedSidecar {
  header: SidecarHeader;
  packed: PackedColumns;
  /** The rows' ids as in the sidecar (Latin-1 bytes, one after the other; -1: in header.wideIds). */
  idBytes: Uint8Array;
  idLen: Int32Array;
  /** The rows' slots in the index, in the sidecar's row order. */
  slots: Int32Array;
}

/** What freezeSidecar copied of a segment's deliveries and events. */
export interface FrozenSidecar {
  /** The segment's id: its deliveries' attempt locations are those up to it. */
  segId: number;
  /** NaN nextDeliverySeq: worked out from the rows. */
  h: Known;
  /** The rows' slots in the index, in creation order. */
  live: number[];
  /**
   * Each row column as it was, row k of slot live[k] (strings and event ids: the index's
   * numbers, held), or the one value every row holds; packSteps takes each out as it
   * encodes it, so its memory can go.
   */
  rows: Map<keyof RowColumns, number | Float64Array | Int32Array | Uint8Array>;
  odd: [number, DeliverySummary][];
  /** Events kept whole: seq, summary, offset, length. */
  whole: [number, EventSummary, number, number][];
  /** The other events' rows (strings and event ids: the index's numbers, held). */
  events: EventRows;
  /** Gives the interners' numbers back (once; the steps do it when they end). */
  release(): void;
}

const ROW_NAMES = [...NUMBER_COLUMNS, ...STRING_COLUMNS, 'evt'] as const;
const isCold = (name: keyof RowColumns): name is keyof ColdColumns => name in COLD;
const COLD = coldColumns(0);

/**
 * Copies what the sidecar of the deliveries at slots `slots` and the events numbered
 * `events` of `idx` (all based in segment `segId`) needs of them as they are now.
 */
export function freezeSidecar(idx: HistoryIndex, segId: number, slots: number[], events: number[], h: Known): FrozenSidecar {
  const { d, ev } = idx;
  const { live, run } = inOrder(slots, d.c.seq);
  // The cold fields by cold row (cold-rows.ts; a closing segment's deliveries all have theirs in memory).
  const cold = new Int32Array(live.length);
  const coldRun = coldRowsOf(d, live, cold);
  const rows: FrozenSidecar['rows'] = new Map();
  const srcs = ROW_NAMES.map((name) => (isCold(name) ? d.cold.k[name] : d.c[name]));
  const at = (name: keyof RowColumns) => (isCold(name) ? cold : live);
  // A column of one value (most of them) is kept as that value; the others are copied.
  ROW_NAMES.forEach((name, i) => {
    const one = (isCold(name) ? coldRun : run) ? constantAt(srcs[i], at(name)) : undefined;
    if (one !== undefined) rows.set(name, one);
  });
  const copied = ROW_NAMES.filter((name) => !rows.has(name));
  const room = systemMemory(copied.reduce((sum, name) => sum + align8(live.length * srcs[ROW_NAMES.indexOf(name)].BYTES_PER_ELEMENT), 0));
  let offset = 0;
  for (const name of copied) {
    const src = srcs[ROW_NAMES.indexOf(name)];
    rows.set(name, copyAt(src, at(name), isCold(name) ? coldRun : run, room, offset));
    offset += align8(live.length * src.BYTES_PER_ELEMENT);
  }
  const odd: [number, DeliverySummary][] = [];
  if (d.oddCount > 0)
    for (let k = 0; k < live.length; k++) {
      const v = d.oddOf(live[k]);
      if (v) odd.push([k, v]);
    }
  const evNums = events
    .map((i) => [ev.loc(i, idx.segs)?.off ?? 0, i])
    .sort((a, b) => a[0] - b[0])
    .map((p) => p[1]);
  const whole = evNums
    .filter((i) => ev.oddOf(i) !== undefined)
    .map((i): [number, EventSummary, number, number] => {
      const loc = ev.loc(i, idx.segs) as Loc;
      return [ev.seq[i], ev.read(i), loc.off, loc.len];
    });
  idx.strs.hold();
  idx.eventIds.hold();
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    idx.strs.unhold();
    idx.eventIds.unhold();
  };
  const compact = ev.exportRows(evNums.filter((i) => ev.oddOf(i) === undefined));
  return { segId, h: { ...h }, live, rows, odd, whole, events: compact, release };
}

/** Numbers of the index's interners renumbered from 0 for a sidecar's own tables. */
class LocalNumbers {
  readonly values: string[] = [];
  private readonly map = new Map<number, number>();
  private lastN = -1;
  private lastL = -1;

  constructor(private readonly valueOf: (n: number) => string) {}

  /** The local number of index number `n`. */
  one(n: number): number {
    return this.of(n);
  }

  /** Renumbers `col` in place. */
  renumber(col: Int32Array): Int32Array {
    if (col.length === 0) return col;
    if (isConstant(col)) return col.fill(this.of(col[0])); // most columns: one value (no loop in JavaScript)
    for (let k = 0; k < col.length; k++) col[k] = this.of(col[k]);
    return col;
  }

  private of(n: number): number {
    if (n < 0) return n;
    if (n === this.lastN) return this.lastL; // most columns hold one value over and over
    let l = this.map.get(n);
    if (l === undefined) {
      l = this.values.length;
      this.values.push(this.valueOf(n));
      this.map.set(n, l);
    }
    this.lastN = n;
    this.lastL = l;
    return l;
  }
}

/**
 * The sidecar of what `f` froze, one column a step (yield): rows in creation order,
 * events in file order, strings numbered as they are met, so the same bytes whichever
 * way the index was made. Releases the interners' numbers when it ends.
 */
export function* packSteps(idx: HistoryIndex, f: FrozenSidecar): Generator<void, PackedSidecar> {
  try {
    const { live, h } = f;
    const n = live.length;
    const take = (name: keyof RowColumns) => {
      const col = f.rows.get(name) as number | Float64Array | Int32Array | Uint8Array;
      f.rows.delete(name);
      return col;
    };
    // A column kept as one value is stored as add() would store it: ['c', value].
    const add = (name: keyof RowColumns, col: number | Float64Array | Int32Array | Uint8Array, ids?: LocalNumbers) => {
      if (typeof col === 'number') packed.addConstant(`r.${name}`, n, ids ? ids.one(col) : col);
      else packed.add(`r.${name}`, ids ? ids.renumber(col as Int32Array) : col, false);
    };
    const strs = new LocalNumbers((n) => idx.strs.get(n));
    const evts = new LocalNumbers((n) => idx.eventIds.get(n));
    const packed = new PackedColumns();
    const seq = f.rows.get('seq') as number | Float64Array;
    if (Number.isNaN(h.nextDeliverySeq)) h.nextDeliverySeq = (typeof seq === 'number' ? Math.max(seq, 0) : maxOf(seq, 0)) + 1;
    for (const name of NUMBER_COLUMNS) {
      add(name, take(name));
      yield;
    }
    for (const name of STRING_COLUMNS) {
      add(name, take(name), strs);
      yield;
    }
    add('evt', take('evt'), evts);
    yield;
    // The ids straight from the index's bytes (no joined string of 25,000 ids).
    const { bytes: idBytes, len: idLen, wide: wideIds } = idx.d.ids.rowsOf(live);
    packed.add('idBytes', idBytes, true);
    packed.add('idLen', idLen, true);
    yield;
    packAttempts(idx, live, f.segId, packed);
    yield;
    const e = f.events;
    evts.renumber(e.num);
    for (const name of EVENT_STRING_COLUMNS) strs.renumber(e[name]);
    for (const name of EVENT_NAMES) packed.add(`e.${name}`, e[name], true);
    const header: SidecarHeader = {
      ...h,
      strings: strs.values,
      eventIds: evts.values,
      rows: live.length,
      wideIds,
      odd: f.odd,
      events: f.whole,
    };
    return { header, packed, idBytes, idLen, slots: Int32Array.from(live) };
  } finally {
    f.release();
  }
}

/**
 * The deliveries' attempt locations in their segment or an older one (those made after
 * the close are in later ones): how many each, then each one's offset, length and item.
 */
function packAttempts(idx: HistoryIndex, live: number[], segId: number, packed: PackedColumns): void {
  const { d, pool, segs } = idx;
  const aCount = new Int32Array(live.length);
  const attempts = attemptCounts(d, pool, segs, live, aCount, segId);
  const locs: LocColumns = { off: new Float64Array(attempts), len: new Int32Array(attempts), item: new Int32Array(attempts) };
  attemptLocs(d, pool, segs, live, locs, segId);
  packed.add('aCount', aCount, true);
  packed.add('aOff', locs.off, true);
  packed.add('aLen', locs.len, true);
  packed.add('aItem', locs.item, true);
}

/**
 * `slots` ordered by `seq` (a copy; no sort when they are in order already, as they
 * usually are), and whether they are then consecutive slots (one pass, as they come).
 */
function inOrder(slots: number[], seq: Float64Array): { live: number[]; run: boolean } {
  const order = orderOf(slots, seq);
  if (order === 0) {
    const live = [...slots].sort((a, b) => seq[a] - seq[b]);
    return { live, run: live.every((s, j) => s === live[0] + j) };
  }
  // Distinct slots, strictly rising and spanning n - 1: consecutive.
  const n = slots.length;
  return { live: slots.slice(), run: order === 1 && (n === 0 || slots[n - 1] - slots[0] === n - 1) };
}
