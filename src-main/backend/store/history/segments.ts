// Segment files of the history log: naming, the startup scan, and reading single
// records back by location. A torn last line (a crash in the middle of a write) is
// reported as the length of the valid prefix so the caller can cut it off.
import { closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
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
  /** Retention is dropping it (retention.ts): its sidecar, if not made yet, is not made. */
  dropping?: boolean;
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

/** Bytes read at a time by a scan (a line longer than this grows a buffer of its own, used once). */
const CHUNK = 256 * 1024;
/**
 * The scan buffer of the last scan, kept for the next one (a segment rotation scans the
 * closed segment): a fresh multi-MB buffer per scan was one more big block for glibc to
 * keep after its free.
 */
let spareChunk: Buffer | null = null;

export interface ScanResult {
  /** Bytes up to and including the last complete line. */
  validLength: number;
  fileSize: number;
  skipped: number;
}

type OnRecord = (rec: ScannedRecord, off: number, len: number) => void;
type Wanted = (buf: Buffer, start: number, end: number, off: number) => boolean;

/**
 * Calls onRecord for every complete, readable line, in file order; with `wanted`, only
 * for the lines it accepts (the others are neither parsed nor counted as unreadable).
 */
export async function scanSegment(path: string, onRecord: OnRecord, wanted?: Wanted): Promise<ScanResult> {
  const fh = await open(path, 'r');
  const steps = scanSteps(onRecord, wanted);
  try {
    for (let step = steps.next(0); ;) {
      if (step.done) return step.value;
      const r = step.value;
      step = steps.next((await fh.read(r.buf, r.at, r.len, r.pos)).bytesRead);
    }
  } finally {
    steps.return({ validLength: 0, fileSize: 0, skipped: 0 }); // gives the scan buffer back if the read failed
    await fh.close();
  }
}

/**
 * scanSegment, synchronously: the history's index rebuilt on demand after the idle
 * collection let it go (history-log.ts) is read in the middle of a call that needs it.
 */
export function scanSegmentSync(path: string, onRecord: OnRecord, wanted?: Wanted): ScanResult {
  const fd = openSync(path, 'r');
  const steps = scanSteps(onRecord, wanted);
  try {
    for (let step = steps.next(0); ;) {
      if (step.done) return step.value;
      const r = step.value;
      step = steps.next(readSync(fd, r.buf, r.at, r.len, r.pos));
    }
  } finally {
    steps.return({ validLength: 0, fileSize: 0, skipped: 0 });
    closeSync(fd);
  }
}

/** A read the scan asks for: `len` bytes at file offset `pos` into `buf` at `at`; it is given the bytes read. */
interface ScanRead {
  buf: Buffer;
  at: number;
  len: number;
  pos: number;
}

/** The scan's line loop, one read at a time (its callers do the reading, asynchronously or not). */
function* scanSteps(onRecord: OnRecord, wanted?: Wanted): Generator<ScanRead, ScanResult, number> {
  let skipped = 0;
  const chunk = spareChunk ?? Buffer.allocUnsafeSlow(CHUNK);
  spareChunk = null; // a scan running meanwhile gets its own
  try {
    let buf = chunk;
    let bufStart = 0; // file offset of buf[0]
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        // One line longer than the buffer: grow it.
        const bigger = Buffer.allocUnsafeSlow(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const bytesRead: number = yield { buf, at: filled, len: buf.length - filled, pos: bufStart + filled };
      if (bytesRead === 0) break;
      filled += bytesRead;
      const lineStart = scanLines(buf, filled, bufStart, onRecord, wanted);
      skipped += linesSkipped;
      if (lineStart > 0) {
        buf.copy(buf, 0, lineStart, filled);
        bufStart += lineStart;
        filled -= lineStart;
      }
    }
    return { validLength: bufStart, fileSize: bufStart + filled, skipped };
  } finally {
    spareChunk = chunk;
  }
}

/** Damaged lines the last scanLines call skipped. */
let linesSkipped = 0;

/**
 * The whole lines of buf[0, filled) (file offset of buf[0]: `bufStart`), each `wanted` one
 * parsed and given to `onRecord` (linesSkipped: those that did not parse); returns where
 * the first line not ended yet starts. A function of its own, called once per read: its
 * code stays compiled from one segment's close to the next (kept-shapes.ts CHUNK_ROWS),
 * where the scan's loop as one was optimized on stack at every close.
 */
function scanLines(buf: Buffer, filled: number, bufStart: number, onRecord: OnRecord, wanted: Wanted | undefined): number {
  linesSkipped = 0;
  let lineStart = 0;
  for (;;) {
    const nl = buf.indexOf(10, lineStart);
    if (nl < 0 || nl >= filled) return lineStart;
    if (nl > lineStart && (!wanted || wanted(buf, lineStart, nl, bufStart + lineStart))) {
      const rec = scanLine(buf, lineStart, nl);
      if (rec) onRecord(rec, bufStart + lineStart, nl - lineStart);
      else linesSkipped++;
    }
    lineStart = nl + 1;
  }
}

/** Reads each location's line; undefined where the file is gone or short. */
export async function readLocs(locs: Loc[]): Promise<(string | undefined)[]> {
  return (await readLocsWith(locs)).lines;
}

/** For a line just read (of locs[i]): another line of the same segment to read with it, if any. */
type Follow = (line: string, i: number) => { off: number; len: number } | undefined;

/**
 * Reads each location's line and, in the same pass over its file (one open for both),
 * the line `follow` names for it: `follows[i]` (lines named twice are read once).
 */
export async function readLocsWith(
  locs: Loc[],
  follow?: Follow,
): Promise<{ lines: (string | undefined)[]; follows: (string | undefined)[] }> {
  const lines: (string | undefined)[] = new Array(locs.length).fill(undefined);
  const follows: (string | undefined)[] = new Array(locs.length).fill(undefined);
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
        const seen = new Map<number, string | undefined>();
        for (const i of indexes) {
          const line = await readLine(fh, locs[i].off, locs[i].len);
          lines[i] = line;
          const next = line === undefined ? undefined : follow?.(line, i);
          if (!next) continue;
          if (!seen.has(next.off)) seen.set(next.off, await readLine(fh, next.off, next.len));
          follows[i] = seen.get(next.off);
        }
      } finally {
        await fh.close();
      }
    }),
  );
  return { lines, follows };
}

async function readLine(fh: FileHandle, off: number, len: number): Promise<string | undefined> {
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await fh.read(buf, got, len - got, off + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === len ? buf.toString('utf8') : undefined;
}

/**
 * The attempts at `locs`, in order, once `ready` (the writer wrote them out). A request
 * body stored as a reference is read from its event line in the same segment, in the
 * same pass over the file; an attempt whose line or body cannot be read is left out.
 */
export async function readAttempts(locs: Loc[], ready: (locs: Loc[]) => Promise<void>): Promise<AttemptRecord[]> {
  await ready(locs);
  const parsed: (ParsedAttempt | undefined)[] = new Array(locs.length).fill(undefined);
  const { follows } = await readLocsWith(locs, (line, i) => {
    const ref = (parsed[i] = parseAttempt(line, locs[i].item))?.ref;
    return ref && !recentBodies.some((e) => e.seg === locs[i].seg && e.off === ref.off) ? ref : undefined;
  });
  const out: AttemptRecord[] = [];
  parsed.forEach((p, i) => {
    if (!p) return;
    if (p.ref) {
      const body = bodyAt(locs[i].seg, p.ref.off, follows[i]);
      if (body === undefined) return;
      p.attempt.request.body = body;
    }
    out.push(p.attempt);
  });
  return out;
}

/**
 * Event bodies read for references lately (the deliveries of one event share one; an
 * inspector shows them one after another), by segment object and offset: a segment cut
 * back by a rollback is a new object, so an entry never outlives the line it was read from.
 */
const recentBodies: { seg: Segment; off: number; body: string }[] = [];

function bodyAt(seg: Segment, off: number, line: string | undefined): string | undefined {
  const hit = recentBodies.find((e) => e.seg === seg && e.off === off);
  if (hit) return hit.body;
  const body = line === undefined ? undefined : parseEventBody(line);
  if (body === undefined || body.length > 64 * 1024) return body;
  if (recentBodies.length >= 16) recentBodies.shift();
  recentBodies.push({ seg, off, body });
  return body;
}
