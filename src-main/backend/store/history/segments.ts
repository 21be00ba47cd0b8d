// Segment files of the history log: naming, the startup scan, and reading single
// records back by location. A torn last line (a crash in the middle of a write) is
// reported as the length of the valid prefix so the caller can cut it off.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAttempt, parseEventBody, scanLine, type ParsedAttempt, type ScannedRecord } from './records.js';
import type { AttemptRecord } from '../history-types.js';

export interface Segment {
  id: number;
  path: string;
  /** Bytes assigned to records so far (written or still buffered). */
  size: number;
  /** Bytes actually written to the file. */
  written: number;
  /** The file does not exist yet: the writer creates it and syncs the folder. */
  isNew: boolean;
  /** Deliveries created in this segment (rotation by count). */
  created: number;
}

/** Where one record's line lives (without its newline). */
export interface Loc {
  seg: Segment;
  off: number;
  len: number;
  /** For an attempt embedded in a carried delivery line: its index in "a". */
  item?: number;
}

const SEGMENT_NAME = /^seg-(\d{6,})\.jsonl$/;

export function segmentName(id: number): string {
  return `seg-${String(id).padStart(6, '0')}.jsonl`;
}

export function segmentIdOf(name: string): number | null {
  const m = SEGMENT_NAME.exec(name);
  return m ? Number(m[1]) : null;
}

export function newSegment(dir: string, id: number, isNew: boolean): Segment {
  return { id, path: join(dir, segmentName(id)), size: 0, written: 0, isNew, created: 0 };
}

const CHUNK = 4 * 1024 * 1024;

export interface ScanResult {
  /** Bytes up to and including the last complete line. */
  validLength: number;
  fileSize: number;
  skipped: number;
}

/** Calls onRecord for every complete, readable line, in file order. */
export async function scanSegment(path: string, onRecord: (rec: ScannedRecord, off: number, len: number) => void): Promise<ScanResult> {
  const fh = await open(path, 'r');
  let skipped = 0;
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let bufStart = 0; // file offset of buf[0]
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        // One line longer than the buffer: grow it.
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, filled, buf.length - filled, bufStart + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      let lineStart = 0;
      for (;;) {
        const nl = buf.indexOf(10, lineStart);
        if (nl < 0 || nl >= filled) break;
        if (nl > lineStart) {
          const rec = scanLine(buf, lineStart, nl);
          if (rec) onRecord(rec, bufStart + lineStart, nl - lineStart);
          else skipped++;
        }
        lineStart = nl + 1;
      }
      if (lineStart > 0) {
        buf.copy(buf, 0, lineStart, filled);
        bufStart += lineStart;
        filled -= lineStart;
      }
    }
    return { validLength: bufStart, fileSize: bufStart + filled, skipped };
  } finally {
    await fh.close();
  }
}

/** Reads each location's line; undefined where the file is gone or short. */
export async function readLocs(locs: Loc[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = new Array(locs.length).fill(undefined);
  const bySeg = new Map<Segment, number[]>();
  locs.forEach((loc, i) => {
    const list = bySeg.get(loc.seg);
    if (list) list.push(i);
    else bySeg.set(loc.seg, [i]);
  });
  await Promise.all(
    [...bySeg].map(async ([seg, indexes]) => {
      let fh;
      try {
        fh = await open(seg.path, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // dropped by retention meanwhile
        throw err;
      }
      try {
        for (const i of indexes) {
          const { off, len } = locs[i];
          const buf = Buffer.allocUnsafe(len);
          let got = 0;
          while (got < len) {
            const { bytesRead } = await fh.read(buf, got, len - got, off + got);
            if (bytesRead === 0) break;
            got += bytesRead;
          }
          if (got === len) out[i] = buf.toString('utf8');
        }
      } finally {
        await fh.close();
      }
    }),
  );
  return out;
}

/**
 * The attempts at `locs`, in order, read with `read` (readLocs, after the writer wrote
 * them out). A request body stored as a reference is read from its event line in the
 * same segment; an attempt whose line or body cannot be read is left out.
 */
export async function readAttempts(locs: Loc[], read: (locs: Loc[]) => Promise<(string | undefined)[]>): Promise<AttemptRecord[]> {
  const lines = await read(locs);
  const parsed: (ParsedAttempt | undefined)[] = lines.map((line, i) => (line === undefined ? undefined : parseAttempt(line, locs[i].item)));
  const refs: Loc[] = [];
  const owners: ParsedAttempt[] = [];
  parsed.forEach((p, i) => {
    if (p?.ref) {
      refs.push({ seg: locs[i].seg, off: p.ref.off, len: p.ref.len });
      owners.push(p);
    }
  });
  if (refs.length > 0) {
    const bodies = await read(refs);
    bodies.forEach((line, j) => {
      const body = line === undefined ? undefined : parseEventBody(line);
      if (body === undefined) return;
      owners[j].attempt.request.body = body;
      owners[j].ref = undefined;
    });
  }
  return parsed.filter((p): p is ParsedAttempt => p !== undefined && p.ref === undefined).map((p) => p.attempt);
}
