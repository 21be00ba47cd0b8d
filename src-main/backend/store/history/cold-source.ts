// The cold fields of closed segments' deliveries (cold-rows.ts), read back from their
// sidecars: a cache of the few segments read last, since a page or a retry batch reads
// many deliveries of one segment. Reading and decoding a sidecar of 25,000 deliveries
// takes a few ms (synchronous: a summary is read synchronously, and the file is under a
// few MB); only the cold columns and the attempt locations are read (sidecar-read.ts),
// into one buffer outside malloc (~1.8 MB for 25,000 deliveries). The idle collection
// lets the cache go (dropCaches): a quiet service reads a sidecar again when asked.
import type { Column } from './column-codec.js';
import { COLD_NUMBER_COLUMNS, COLD_STRING_COLUMNS, type ColdColumns } from './delivery-row.js';
import type { ColdSource } from './cold-rows.js';
import type { Segment } from './segments.js';
import { sidecarPath, type SidecarData } from './sidecar-format.js';
import { dropReadScratch, readSidecarColumns } from './sidecar-read.js';

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
const ATTEMPT_NAMES = ['aCount', 'aOff', 'aLen', 'aItem'];

/** The cold fields of the deliveries based in `seg` from its sidecar, or why it cannot be used. */
function readColdSource(seg: Segment): ColdSource | string {
  const read = readSidecarColumns(sidecarPath(seg.path), seg.size, [...COLD_NAMES, ...ATTEMPT_NAMES], new Set(['aCount']));
  if (typeof read === 'string') return read;
  const { header, cols } = read;
  const col = (name: string) => cols.get(name) as Column;
  if (COLD_NAMES.some((name) => col(name).length !== header.rows) || col('aCount').length !== header.rows)
    return 'columns of different lengths';
  // aCount has a zero before it: made into each row's first attempt (a running sum) in place.
  const aCount = col('aCount');
  const aFirst = new Int32Array(aCount.buffer, aCount.byteOffset - 4, aCount.length + 1);
  for (let k = 1; k < aFirst.length; k++) aFirst[k] += aFirst[k - 1];
  const attempts = col('aOff').length;
  if (aFirst[aFirst.length - 1] !== attempts || col('aLen').length !== attempts || col('aItem').length !== attempts)
    return 'attempt columns of different lengths';
  const rows = {} as Record<keyof ColdColumns, Column>;
  for (const name of [...COLD_NUMBER_COLUMNS, ...COLD_STRING_COLUMNS]) rows[name] = col(`r.${name}`);
  return {
    rows: rows as ColdColumns,
    strings: header.strings,
    aFirst,
    aOff: col('aOff') as Float64Array,
    aLen: col('aLen') as Int32Array,
    aItem: col('aItem') as Int32Array,
  };
}

/** A sidecar's cold fields (the rest of its data left to the garbage collector). */
export function coldSourceOf(data: SidecarData): ColdSource {
  const rows = {} as Record<keyof ColdColumns, ColdColumns[keyof ColdColumns]>;
  for (const name of [...COLD_NUMBER_COLUMNS, ...COLD_STRING_COLUMNS]) rows[name] = data.rows[name];
  const aFirst = new Int32Array(data.aCount.length + 1);
  for (let k = 0; k < data.aCount.length; k++) aFirst[k + 1] = aFirst[k] + data.aCount[k];
  return { rows: rows as ColdColumns, strings: data.header.strings, aFirst, aOff: data.aOff, aLen: data.aLen, aItem: data.aItem };
}
