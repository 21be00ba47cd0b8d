// The cold fields of closed segments' deliveries (cold-rows.ts), read back from their
// sidecars: a cache of the few segments read last, since a page or a retry batch reads
// many deliveries of one segment. Reading and decoding a sidecar of 25,000 deliveries
// takes a few ms (synchronous: a summary is read synchronously, and the file is under a
// MB); a decoded segment keeps only its cold columns, string table, attempt locations
// and ids (~2.7 MB).
import { readFileSync } from 'node:fs';
import { COLD_NUMBER_COLUMNS, COLD_STRING_COLUMNS, type ColdColumns } from './delivery-row.js';
import type { ColdSource } from './cold-rows.js';
import type { Segment } from './segments.js';
import { decodeSidecarFor, sidecarPath, type SidecarData } from './sidecar-format.js';

/** How many closed segments' cold fields stay decoded. */
export const COLD_CACHE_SEGMENTS = 2;

export class ColdSources {
  /** Most recently used first. */
  private recent: { segId: number; src: ColdSource }[] = [];
  /** Sidecars read (cache misses), for tests and the bench. */
  reads = 0;
  /** The cold fields read from the segment itself, when its sidecar cannot be used (cold-rescan.ts; set at load). */
  rescan?: (seg: Segment) => ColdSource;

  constructor(private readonly segs: Map<number, Segment>) {}

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

  /** Drops what is cached (the loader, once the sidecars it applied are no longer needed). */
  clear(): void {
    this.recent = [];
  }

  private read(segId: number): ColdSource {
    const seg = this.segs.get(segId);
    if (!seg) throw new Error(`history: segment ${segId} is not known, its deliveries cannot be read`);
    this.reads++;
    const data = readSidecarSync(seg);
    if (typeof data !== 'string') return coldSourceOf(data);
    if (this.rescan) return this.rescan(seg);
    throw new Error(`history: cannot read ${sidecarPath(seg.path)}: ${data}`);
  }
}

/** The segment's sidecar, or why it cannot be used. */
function readSidecarSync(seg: Segment): SidecarData | string {
  let buf: Buffer;
  try {
    buf = readFileSync(sidecarPath(seg.path));
  } catch (err) {
    return (err as Error).message;
  }
  return decodeSidecarFor(buf, seg.size);
}

/** A sidecar's cold fields (the rest of its data left to the garbage collector). */
export function coldSourceOf(data: SidecarData): ColdSource {
  const rows = {} as Record<keyof ColdColumns, ColdColumns[keyof ColdColumns]>;
  for (const name of [...COLD_NUMBER_COLUMNS, ...COLD_STRING_COLUMNS]) rows[name] = data.rows[name];
  const aFirst = new Int32Array(data.aCount.length + 1);
  for (let k = 0; k < data.aCount.length; k++) aFirst[k + 1] = aFirst[k] + data.aCount[k];
  const at = new Float64Array(data.idLen.length);
  for (let k = 1; k < at.length; k++) at[k] = at[k - 1] + Math.max(0, data.idLen[k - 1]);
  const ids = { bytes: data.idBytes, at, len: data.idLen };
  return { rows: rows as ColdColumns, strings: data.header.strings, aFirst, aOff: data.aOff, aLen: data.aLen, aItem: data.aItem, ids };
}
