// What goes into a segment's index sidecar (sidecar.ts, format in sidecar-format.ts),
// made two ways that give the same sidecar:
// - from the history's own index, at the moment the log moves past the segment
//   (snapshotSidecar): nothing of a later segment exists yet, so the deliveries based in
//   the segment and the events whose latest record is there are, in memory, exactly what
//   a scan of that file alone would make of them. Only the records the file holds about
//   deliveries of older segments are not in memory as records: they are picked out of
//   the file afterwards (foreignRecords), reading the delivery id at the head of each
//   attempt and patch line and parsing only those lines that are not about the
//   segment's own deliveries. A delivery burst does not pay a parse of every line;
// - by scanning the segment with the start-up loader (sidecar.ts writeSidecar), for a
//   segment that was read in full at start-up (its sidecar missing or damaged).
import type { DeliverySummary, EventSummary } from '../history-types.js';
import { coldColumns, NUMBER_COLUMNS, STRING_COLUMNS, type ColdColumns, type RowColumns } from './delivery-row.js';
import { EVENT_STRING_COLUMNS } from './event-table.js';
import type { HistoryIndex } from './index-state.js';
import type { LocColumns } from './loc-pool.js';
import { aboutOtherDelivery, type ScannedRecord } from './records.js';
import { scanSegment, type Loc, type Segment } from './segments.js';
import { EVENT_NAMES, PackedColumns, type SidecarData, type SidecarHeader } from './sidecar-format.js';
import type { NotedRecords } from './known-foreign.js';

/** The delivery a record is about, for those that only touch a delivery already known. */
export function touchedDelivery(rec: ScannedRecord): string | undefined {
  if ('deliveryId' in rec) return rec.deliveryId;
  return rec.kind === 'd' && !rec.base ? rec.v.id : undefined;
}

/** Numbers of the index's interners renumbered from 0 for a sidecar's own tables. */
class LocalNumbers {
  readonly values: string[] = [];
  private readonly map = new Map<number, number>();

  constructor(private readonly valueOf: (n: number) => string) {}

  private lastN = -1;
  private lastL = -1;

  of(n: number): number {
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

type Known = Pick<SidecarHeader, 'segBytes' | 'created' | 'nextDeliverySeq' | 'nextEventSeq' | 'foreign'>;

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

/**
 * The sidecar of the deliveries at slots `live` and the events numbered `evNums` of
 * `idx`, all based in one segment. Rows in creation order, events in file order, strings
 * numbered as they are met: the same bytes whichever way the index was made. Each column
 * is encoded as soon as it is taken (copied into an array reused for the next), so what
 * stays until the sidecar is written is the encoded bytes, not copies of the columns.
 */
export function sidecarOf(idx: HistoryIndex, slots: number[], events: number[], h: Known): PackedSidecar {
  const { d, ev } = idx;
  const live = inOrder(slots, d.c.seq);
  const evNums = events
    .map((i) => [ev.loc(i, idx.segs)?.off ?? 0, i])
    .sort((a, b) => a[0] - b[0])
    .map((p) => p[1]);
  const strs = new LocalNumbers((n) => idx.strs.get(n));
  const evts = new LocalNumbers((n) => idx.eventIds.get(n));
  const packed = new PackedColumns();
  // The cold fields by cold row (cold-rows.ts; a closing segment's deliveries all have theirs in memory).
  const cold = live.map((s) => d.coldRow(s));
  const [run, coldRun] = [isRun(live), isRun(cold)];
  const from = (name: keyof RowColumns) => (isCold(name) ? d.cold.k[name] : d.c[name]);
  const at = (name: keyof RowColumns) => (isCold(name) ? cold : live);
  const copies = new Copies(live.length);
  for (const name of NUMBER_COLUMNS) {
    const [src, ks] = [from(name), at(name)];
    packed.add(`r.${name}`, copies.of(src, ks, isCold(name) ? coldRun : run), false);
  }
  const numbered = new Int32Array(live.length); // one array for each column of numbers renumbered, encoded in turn
  for (const name of STRING_COLUMNS) {
    const [src, ks] = [from(name), at(name)];
    for (let k = 0; k < live.length; k++) numbered[k] = strs.of(src[ks[k]]);
    packed.add(`r.${name}`, numbered, false);
  }
  for (let k = 0; k < live.length; k++) numbered[k] = evts.of(d.c.evt[live[k]]);
  packed.add('r.evt', numbered, false);
  // The ids straight from the index's bytes (no joined string of 25,000 ids at each rotation).
  const { bytes: idBytes, len: idLen, wide: wideIds } = d.ids.rowsOf(live);
  packed.add('idBytes', idBytes, true);
  packed.add('idLen', idLen, true);
  packAttempts(idx, live, packed);
  const odd: [number, DeliverySummary][] = [];
  live.forEach((s, k) => {
    const v = d.oddOf(s);
    if (v) odd.push([k, v]);
  });
  const whole = evNums.filter((i) => ev.oddOf(i) !== undefined);
  const wholeEvents = whole.map((i): [number, EventSummary, number, number] => {
    const loc = ev.loc(i, idx.segs) as Loc;
    return [ev.seq[i], ev.read(i), loc.off, loc.len];
  });
  const compact = ev.exportRows(evNums.filter((i) => ev.oddOf(i) === undefined));
  compact.num = compact.num.map((n) => evts.of(n));
  for (const name of EVENT_STRING_COLUMNS) compact[name] = compact[name].map((n) => strs.of(n));
  for (const name of EVENT_NAMES) packed.add(`e.${name}`, compact[name], true);
  const header: SidecarHeader = { ...h, strings: strs.values, eventIds: evts.values, rows: live.length, wideIds, odd, events: wholeEvents };
  return { header, packed, idBytes, idLen, slots: Int32Array.from(live) };
}

/** The deliveries' attempt locations (all in their segment): how many each, then each one's offset, length and item. */
function packAttempts(idx: HistoryIndex, live: number[], packed: PackedColumns): void {
  const { d, pool, segs } = idx;
  const aCount = new Int32Array(live.length);
  let attempts = 0;
  for (let k = 0; k < live.length; k++) attempts += aCount[k] = pool.count(d.attemptHead(live[k]), segs);
  const locs: LocColumns = { off: new Float64Array(attempts), len: new Int32Array(attempts), item: new Int32Array(attempts) };
  for (let k = 0, at = 0; k < live.length; k++) at = pool.fill(d.attemptHead(live[k]), segs, locs, at);
  packed.add('aCount', aCount, true);
  packed.add('aOff', locs.off, true);
  packed.add('aLen', locs.len, true);
  packed.add('aItem', locs.item, true);
}

/** The columns of a sidecar made from an index, decoded again (as read from its file). */
export function unpacked(s: PackedSidecar): SidecarData {
  const data = s.packed.data(s.header);
  if (typeof data === 'string') throw new Error(`history: a sidecar just made does not decode: ${data}`);
  return data;
}

/** `slots` ordered by `seq` (a copy; no sort when they are in order already, as they usually are). */
function inOrder(slots: number[], seq: Float64Array): number[] {
  for (let k = 1; k < slots.length; k++) if (seq[slots[k - 1]] > seq[slots[k]]) return [...slots].sort((a, b) => seq[a] - seq[b]);
  return slots.slice();
}

const isCold = (name: keyof RowColumns): name is keyof ColdColumns => name in COLD;
const COLD = coldColumns(0);

function isRun(slots: number[]): boolean {
  for (let k = 1; k < slots.length; k++) if (slots[k] !== slots[0] + k) return false;
  return true;
}

/**
 * The entries of an index column at some slots, in one array of each type reused from
 * column to column (each is encoded before the next is taken). A copy rather than a view:
 * the index's columns live in resizable buffers, whose elements V8 reads several times
 * slower, and encoding reads each value a few times.
 */
class Copies {
  private readonly made = new Map<unknown, Float64Array | Int32Array | Uint8Array>();

  constructor(private readonly n: number) {}

  /** `run`: the slots are consecutive (copied at once). */
  of<T extends Float64Array | Int32Array | Uint8Array>(src: T, slots: number[], run: boolean): T {
    const Ctor = src.constructor as new (n: number) => T;
    const col = (this.made.get(Ctor) as T | undefined) ?? new Ctor(this.n);
    this.made.set(Ctor, col);
    if (run && slots.length > 0) col.set(src.subarray(slots[0], slots[0] + slots.length));
    else for (let k = 0; k < slots.length; k++) col[k] = src[slots[k]];
    return col;
  }
}

/**
 * The sidecar of `seg` from the index, called as the log moves past it (before anything
 * is recorded in the next segment); its `foreign` records are still to be read from the
 * file (foreignRecords).
 */
export function snapshotSidecar(idx: HistoryIndex, seg: Segment): PackedSidecar {
  const live = idx.deliveriesIn(seg.id);
  const evNums = idx.ev.inSegment(seg.id);
  let nextDeliverySeq = 1;
  for (const s of live) nextDeliverySeq = Math.max(nextDeliverySeq, idx.d.c.seq[s] + 1);
  let nextEventSeq = 1;
  for (const i of evNums) nextEventSeq = Math.max(nextEventSeq, idx.ev.seq[i] + 1);
  return sidecarOf(idx, live, evNums, {
    segBytes: seg.size,
    created: seg.created,
    nextDeliverySeq,
    nextEventSeq,
    foreign: [],
  });
}

/**
 * The records of the segment file at `path` about deliveries other than `own`, in file
 * order, as the start-up scan reads them; undefined if the file is damaged or is not
 * `bytes` long (it never gets a sidecar then). `known`: records of some of those lines
 * noted when they were appended (known-foreign.ts), in file order: those lines are not parsed.
 */
export async function foreignRecords(
  path: string,
  own: { has(id: string): boolean },
  bytes: number,
  known?: NotedRecords,
): Promise<SidecarHeader['foreign'] | undefined> {
  const foreign: SidecarHeader['foreign'] = [];
  let k = 0;
  let mismatch = false;
  const scanned = await scanSegment(
    path,
    (rec, off, len) => {
      const id = touchedDelivery(rec);
      if (id !== undefined && !own.has(id)) foreign.push([rec, off, len]);
    },
    (buf, start, end, off) => {
      if (known && k < known.length && known.off[k] === off) {
        mismatch ||= known.len[k] !== end - start;
        foreign.push(known.record(k++));
        return false;
      }
      return aboutOtherDelivery(buf, start, end, own);
    },
  );
  if (mismatch || k !== (known?.length ?? 0)) return undefined; // not the lines the log appended: scanned at the next start
  return scanned.skipped > 0 || scanned.validLength !== scanned.fileSize || scanned.fileSize !== bytes ? undefined : foreign;
}
