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
import type { SidecarData, SidecarHeader } from './sidecar-format.js';
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

/**
 * The sidecar of the deliveries at slots `live` and the events numbered `evNums` of
 * `idx`, all based in one segment. Rows in creation order, events in file order, strings
 * numbered as they are met: the same bytes whichever way the index was made.
 */
export function sidecarOf(idx: HistoryIndex, slots: number[], events: number[], h: Known): { data: SidecarData; slots: number[] } {
  const { d, ev } = idx;
  const live = inOrder(slots, d.c.seq);
  const evNums = events
    .map((i) => [ev.loc(i, idx.segs)?.off ?? 0, i])
    .sort((a, b) => a[0] - b[0])
    .map((p) => p[1]);
  const strs = new LocalNumbers((n) => idx.strs.get(n));
  const evts = new LocalNumbers((n) => idx.eventIds.get(n));
  const rows = {} as Record<keyof RowColumns, Float64Array | Int32Array | Uint8Array>;
  // The slots of one segment are usually one run (allocated in order): whole runs copied at once.
  const run = isRun(live);
  // The cold fields by cold row (cold-rows.ts; a closing segment's deliveries all have theirs in memory).
  const cold = live.map((s) => d.coldRow(s));
  const coldRun = isRun(cold);
  const from = (name: keyof RowColumns) => (isCold(name) ? d.cold.k[name] : d.c[name]);
  const at = (name: keyof RowColumns) => (isCold(name) ? cold : live);
  for (const name of NUMBER_COLUMNS) rows[name] = gather(from(name), at(name), isCold(name) ? coldRun : run);
  for (const name of STRING_COLUMNS) {
    const [src, idx, col] = [from(name), at(name), (rows[name] = new Int32Array(live.length))];
    for (let k = 0; k < live.length; k++) col[k] = strs.of(src[idx[k]]);
  }
  rows.evt = new Int32Array(live.length);
  for (let k = 0; k < live.length; k++) rows.evt[k] = evts.of(d.c.evt[live[k]]);
  const aCount = new Int32Array(live.length);
  let attempts = 0;
  for (let k = 0; k < live.length; k++) attempts += aCount[k] = idx.pool.count(d.attemptHead(live[k]), idx.segs);
  const locs: LocColumns = { off: new Float64Array(attempts), len: new Int32Array(attempts), item: new Int32Array(attempts) };
  for (let k = 0, at = 0; k < live.length; k++) at = idx.pool.fill(d.attemptHead(live[k]), idx.segs, locs, at);
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
  // The ids straight from the index's bytes (no joined string of 25,000 ids at each rotation).
  const { bytes: idBytes, len: idLen, wide: wideIds } = d.ids.rowsOf(live);
  const header: SidecarHeader = { ...h, strings: strs.values, eventIds: evts.values, rows: live.length, wideIds, odd, events: wholeEvents };
  const data = {
    header,
    rows: rows as RowColumns,
    idBytes,
    idLen,
    aCount,
    aOff: locs.off,
    aLen: locs.len,
    aItem: locs.item,
    events: compact,
  };

  return { data, slots: live };
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

/** The entries of column `src` at `slots`, as a new array of its type; `run`: the slots are consecutive. */
function gather<T extends Float64Array | Int32Array | Uint8Array>(src: T, slots: number[], run: boolean): T {
  const Ctor = src.constructor as new (n: number) => T;
  const col = new Ctor(slots.length);
  if (run && slots.length > 0) col.set(src.subarray(slots[0], slots[0] + slots.length));
  else for (let k = 0; k < slots.length; k++) col[k] = src[slots[k]];
  return col;
}

/**
 * The sidecar of `seg` from the index, called as the log moves past it (before anything
 * is recorded in the next segment) and its deliveries' slots (in the sidecar's row
 * order); its `foreign` records
 * are still to be read from the file (foreignRecords).
 */
export function snapshotSidecar(idx: HistoryIndex, seg: Segment): { data: SidecarData; slots: Int32Array } {
  const live = idx.deliveriesIn(seg.id);
  const evNums = idx.ev.inSegment(seg.id);
  let nextDeliverySeq = 1;
  for (const s of live) nextDeliverySeq = Math.max(nextDeliverySeq, idx.d.c.seq[s] + 1);
  let nextEventSeq = 1;
  for (const i of evNums) nextEventSeq = Math.max(nextEventSeq, idx.ev.seq[i] + 1);
  const { data, slots } = sidecarOf(idx, live, evNums, {
    segBytes: seg.size,
    created: seg.created,
    nextDeliverySeq,
    nextEventSeq,
    foreign: [],
  });
  return { data, slots: Int32Array.from(slots) };
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
