// The cold fields of closed segments' deliveries (cold-rows.ts), read back from their
// sidecars: a cache of the few segments read last, since a page or a retry batch reads
// many deliveries of one segment. Reading and decoding a sidecar of 25,000 deliveries
// takes a few ms (synchronous: a summary is read synchronously, and the file is under a
// few MB); only the cold columns, the attempt locations and the ids are read
// (sidecar-read.ts), into one buffer outside malloc (~2.7 MB for 25,000 deliveries). The
// idle collection lets the cache go (dropCaches): a quiet service reads a sidecar again
// when asked.
import type { Column } from './column-codec.js';
import { systemArray, systemBuffer } from './columns.js';
import { COLD_NUMBER_COLUMNS, COLD_STRING_COLUMNS, type ColdColumns } from './delivery-row.js';
import type { ColdSource } from './cold-rows.js';
import type { IdBytes } from './id-table.js';
import type { Segment } from './segments.js';
import { sidecarPath, type SidecarData, type SidecarHeader } from './sidecar-format.js';
import { dropReadScratch, readSidecarColumns } from './sidecar-read.js';
import { CHUNK_ROWS, keepShape } from './kept-shapes.js';

/** How many closed segments' cold fields stay decoded. */
export const COLD_CACHE_SEGMENTS = 2;

/** Every cache made, weakly (an index that is no longer used is not kept by this): dropColdCaches empties them. */
const caches = new Set<WeakRef<ColdSources>>();

/** Empties every cold cache and lets the read's scratch buffer go (the idle collection, idle-collector.ts). */
export function dropColdCaches(): void {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) cache.clear();
    else caches.delete(ref);
  }
  dropReadScratch();
}

export class ColdSources {
  /** Most recently used first. */
  private recent: { segId: number; src: ColdSource }[] = [];
  /** Sidecars read (cache misses), for tests and the bench. */
  reads = 0;
  /** The cold fields read from the segment itself, when its sidecar cannot be used (cold-rescan.ts; set at load). */
  rescan?: (seg: Segment) => ColdSource;

  constructor(private readonly segs: Map<number, Segment>) {
    caches.add(new WeakRef(this));
  }

  /** How many segments' cold fields are held now. */
  get size(): number {
    return this.recent.length;
  }

  /** The cold fields of the deliveries based in segment `segId`, as its sidecar holds them. */
  get(segId: number): ColdSource {
    const at = this.recent.findIndex((e) => e.segId === segId);
    if (at >= 0) {
      const [hit] = this.recent.splice(at, 1);
      this.recent.unshift(hit);
      return hit.src;
    }
    const src = this.read(segId);
    this.put(segId, src);
    return src;
  }

  /** Remembers a segment's cold fields known already (the sidecar just written), sparing a read. */
  put(segId: number, src: ColdSource): void {
    this.recent = [{ segId, src }, ...this.recent.filter((e) => e.segId !== segId)].slice(0, COLD_CACHE_SEGMENTS);
  }

  /** Drops what is cached (the loader, once the sidecars it applied are no longer needed; the idle collection). */
  clear(): void {
    this.recent = [];
  }

  private read(segId: number): ColdSource {
    const seg = this.segs.get(segId);
    if (!seg) throw new Error(`history: segment ${segId} is not known, its deliveries cannot be read`);
    this.reads++;
    const src = readColdSource(seg);
    if (typeof src !== 'string') return src;
    if (this.rescan) return this.rescan(seg);
    throw new Error(`history: cannot read ${sidecarPath(seg.path)}: ${src}`);
  }
}

const COLD_NAMES = [...COLD_NUMBER_COLUMNS, ...COLD_STRING_COLUMNS].map((n) => `r.${n}`);
/** The columns of a sidecar a ColdSource is made of (a closed delivery's id is its row's there too: delivery-ids.ts). */
export const COLD_SOURCE_COLUMNS = [...COLD_NAMES, 'aCount', 'aOff', 'aLen', 'aItem', 'idBytes', 'idLen'];

/** The cold fields of the deliveries based in `seg` from its sidecar, or why it cannot be used. */
function readColdSource(seg: Segment): ColdSource | string {
  const read = readSidecarColumns(sidecarPath(seg.path), seg.size, COLD_SOURCE_COLUMNS, new Set(['aCount']));
  if (typeof read === 'string') return read;
  const aCount = read.cols.get('aCount') as Int32Array;
  // aCount has a zero before it: made into each row's first attempt (a running sum) in place.
  const aFirst = new Int32Array(aCount.buffer, aCount.byteOffset - 4, aCount.length + 1);
  for (let k = 1; k < aFirst.length; k++) aFirst[k] += aFirst[k - 1];
  return coldSourceOfColumns(read.header, read.cols, aFirst);
}

/**
 * A ColdSource from a sidecar's COLD_SOURCE_COLUMNS and header (its string table), or why
 * they do not fit together; `aFirst`: each row's first attempt, made from aCount if not given.
 */
export function coldSourceOfColumns(header: SidecarHeader, cols: Map<string, Column>, aFirst?: Int32Array): ColdSource | string {
  const col = (name: string) => cols.get(name) as Column;
  const n = header.rows;
  if (COLD_NAMES.some((name) => col(name).length !== n) || col('aCount').length !== n) return 'columns of different lengths';
  const first = aFirst ?? new Int32Array(n + 1);
  if (!aFirst) runningSums(first, col('aCount'), n);
  const attempts = col('aOff').length;
  if (first[n] !== attempts || col('aLen').length !== attempts || col('aItem').length !== attempts)
    return 'attempt columns of different lengths';
  const ids = idRows(col('idBytes') as Uint8Array, col('idLen') as Int32Array);
  if (col('idLen').length !== header.rows || !ids) return 'ids of the wrong length';
  const rows = {} as Record<keyof ColdColumns, Column>;
  for (const name of [...COLD_NUMBER_COLUMNS, ...COLD_STRING_COLUMNS]) rows[name] = col(`r.${name}`);
  return {
    rows: rows as ColdColumns,
    strings: header.strings,
    aFirst: first,
    aOff: col('aOff') as Float64Array,
    aLen: col('aLen') as Int32Array,
    aItem: col('aItem') as Int32Array,
    ids,
  };
}

/** A sidecar's cold fields (the rest of its data left to the garbage collector). */
export function coldSourceOf(data: SidecarData): ColdSource {
  const rows = {} as Record<keyof ColdColumns, ColdColumns[keyof ColdColumns]>;
  for (const name of [...COLD_NUMBER_COLUMNS, ...COLD_STRING_COLUMNS]) rows[name] = data.rows[name];
  const aFirst = systemArray(Int32Array, data.aCount.length + 1);
  runningSums(aFirst, data.aCount, data.aCount.length);
  const ids = idRows(data.idBytes, data.idLen) as IdBytes;
  return { rows: rows as ColdColumns, strings: data.header.strings, aFirst, aOff: data.aOff, aLen: data.aLen, aItem: data.aItem, ids };
}

/** The ids' bytes with each row's start (in a buffer outside malloc), or undefined if the lengths do not add up to the bytes. */
function idRows(bytes: Uint8Array, len: Int32Array): IdBytes | undefined {
  const at = new Float64Array(systemBuffer(len.length * 8));
  for (let from = 1; from < at.length; from += CHUNK_ROWS) startsIn(at, len, from, Math.min(at.length, from + CHUNK_ROWS));
  const total = len.length === 0 ? 0 : at[len.length - 1] + Math.max(0, len[len.length - 1]);
  return total === bytes.length ? { bytes, at, len } : undefined;
}

/**
 * first[k + 1] = first[k] + counts[k] for k < n, a chunk of rows a call (kept-shapes.ts):
 * run once per close (the eviction's ColdSource), one loop would be compiled again each time.
 */
function runningSums(first: Int32Array, counts: ArrayLike<number>, n: number): void {
  for (let from = 0; from < n; from += CHUNK_ROWS) sumsIn(first, counts, from, Math.min(n, from + CHUNK_ROWS));
}

function sumsIn(first: Int32Array, counts: ArrayLike<number>, from: number, to: number): void {
  for (let k = from; k < to; k++) first[k + 1] = first[k] + counts[k];
}

/** at[k] = at[k - 1] + the length of id k - 1 (none: 0), for k in [from, to). */
function startsIn(at: Float64Array, len: Int32Array, from: number, to: number): void {
  for (let k = from; k < to; k++) at[k] = at[k - 1] + Math.max(0, len[k - 1]);
}

// A ColdSource of no rows, made as each close's is: its hidden classes (and its rows' and
// ids') stay, so the eviction's code, which meets one per close, stays compiled (kept-shapes.ts).
keepShape(
  coldSourceOfColumns(
    { rows: 0, strings: [] } as unknown as SidecarHeader,
    new Map<string, Column>([
      ...COLD_NAMES.map((name): [string, Column] => [
        name,
        /^r\.(lastAt|code|dur|next)$/.test(name) ? new Float64Array(0) : new Int32Array(0),
      ]),
      ['aCount', new Int32Array(0)],
      ['aOff', new Float64Array(0)],
      ['aLen', new Int32Array(0)],
      ['aItem', new Int32Array(0)],
      ['idBytes', new Uint8Array(0)],
      ['idLen', new Int32Array(0)],
    ]),
  ) as ColdSource,
);
