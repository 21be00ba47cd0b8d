// Reading sidecars (sidecar-format.ts) without a malloc'd buffer of their size. Reading
// a whole file into a Buffer (1-4.6 MB) and freeing it after the decode raised glibc's
// mmap threshold to that size for the rest of the process, and with it what every arena
// keeps free (docs/architecture.md, "Memory"). Start-up reads each sidecar whole into a
// buffer V8 maps from the system itself (columns.ts systemBuffer) and unmaps when it is
// collected. The cold fields' cache (cold-source.ts) reads some columns synchronously at
// each miss without holding the file: the checksum is computed over the file read in
// pieces through one small scratch buffer, the header's text is decoded from those pieces
// as they pass, then each column asked for is read alone and decoded into one such buffer
// holding them all.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { crc32 } from 'node:zlib';
import { decodeColumn, type Column, type ColumnCtor } from './column-codec.js';
import { systemBuffer } from './columns.js';
import { deliveryColumns } from './delivery-row.js';
import { isMagic, pad8, PREFIX, type ColEntry, type SidecarHeader } from './sidecar-format.js';

/** The scratch buffer's usual size: the file passes through it in pieces of this size. */
export const READ_PIECE = 64 * 1024;

let scratch: Buffer | undefined;

/** The scratch buffer, of at least `n` bytes (an encoded column is decoded from it whole). */
function scratchOf(n: number): Buffer {
  if (!scratch || scratch.length < n) scratch = Buffer.from(systemBuffer(Math.max(READ_PIECE, n)));
  return scratch;
}

/** Lets the scratch buffer go (the idle collection: it is made again at the next read). */
export function dropReadScratch(): void {
  scratch = undefined;
}

/** Whether a scratch buffer is held now (for tests). */
export function holdsReadScratch(): boolean {
  return scratch !== undefined;
}

/**
 * The whole file at `path` in a buffer V8 maps itself: start-up reads each closed
 * segment's sidecar whole once (1-4 MB), and a malloc'd Buffer of that size, freed after
 * the load, set glibc's mmap threshold to it for the rest of the process.
 */
export async function readWholeFile(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const buf = Buffer.from(systemBuffer(size), 0, size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(buf, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } finally {
    await fh.close();
  }
}

/** readWholeFile, synchronously (the index rebuilt on demand: history-log.ts). */
export function readWholeFileSync(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    const buf = Buffer.from(systemBuffer(size), 0, size);
    let at = 0;
    while (at < size) {
      const bytesRead = readSync(fd, buf, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** What readSidecarColumns gives: the header and the columns asked for, by name, all in one buffer. */
export interface SidecarColumns {
  header: SidecarHeader;
  cols: Map<string, Column>;
}

const ROWS = deliveryColumns(0) as Record<string, Column>;
const INT32 = new Set(['idLen', 'aCount', 'aLen', 'aItem']);

/** The typed array a column of that name is read as (the rows' columns and the attempts'). */
function ctorOf(name: string): ColumnCtor | undefined {
  if (name.startsWith('r.')) return ROWS[name.slice(2)]?.constructor as ColumnCtor | undefined;
  if (name === 'idBytes') return Uint8Array;
  if (name === 'aOff') return Float64Array;
  return INT32.has(name) ? Int32Array : undefined;
}

/**
 * Columns `names` of the sidecar at `path` if it describes a segment of `segBytes` bytes,
 * or why it cannot be used. A column in `leading` has one zeroed entry before it in the
 * buffer (its caller may turn it into a running sum in place).
 */
export function readSidecarColumns(
  path: string,
  segBytes: number,
  names: readonly string[],
  leading: ReadonlySet<string> = new Set(),
): SidecarColumns | string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return (err as Error).message;
  }
  try {
    const head = readHeader(fd);
    if (typeof head === 'string') return head;
    if (head.header.segBytes !== segBytes) return `it describes ${head.header.segBytes} bytes of a segment of ${segBytes}`;
    const cols = readColumns(fd, head, names, leading);
    return typeof cols === 'string' ? cols : { header: head.header, cols };
  } catch (err) {
    return (err as Error).message;
  } finally {
    closeSync(fd);
  }
}

interface Head {
  header: SidecarHeader;
  cols: ColEntry[];
  /** Where the columns start in the file, and where the checksum starts. */
  bodyAt: number;
  end: number;
}

/** The whole file through the scratch buffer: its checksum checked, its header parsed. */
function readHeader(fd: number): Head | string {
  const size = fstatSync(fd).size;
  if (size < PREFIX + 4) return 'not an index file of this version';
  const buf = scratchOf(READ_PIECE).subarray(0, READ_PIECE);
  const end = size - 4;
  const decoder = new StringDecoder('utf8');
  const text: string[] = [];
  let crc = 0;
  let rows = 0;
  let headEnd = PREFIX;
  for (let at = 0; at < end;) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - at), at);
    if (n <= 0) return 'cut short';
    const piece = buf.subarray(0, n);
    if (at === 0) {
      if (n < PREFIX || !isMagic(piece)) return 'not an index file of this version';
      rows = piece.readUInt32LE(PREFIX - 8);
      headEnd = PREFIX + piece.readUInt32LE(PREFIX - 4);
    }
    const [from, to] = [Math.max(at, PREFIX), Math.min(at + n, headEnd)];
    if (from < to) text.push(decoder.write(piece.subarray(from - at, to - at)));
    crc = crc32(piece, crc);
    at += n;
  }
  if (readSync(fd, buf, 0, 4, end) !== 4 || buf.readUInt32LE(0) !== crc >>> 0) return 'checksum mismatch';
  if (headEnd > end) return 'cut short';
  let parsed: SidecarHeader & { cols: ColEntry[] };
  try {
    parsed = JSON.parse(text.join('') + decoder.end()) as typeof parsed;
  } catch {
    return 'unreadable header';
  }
  const { cols, ...header } = parsed;
  if (header.rows !== rows) return 'row counts differ';
  if (!Array.isArray(cols)) return 'unreadable header';
  return { header, cols, bodyAt: headEnd + pad8(headEnd), end };
}

/** Columns `names` decoded into one system buffer, or why one cannot be read. */
function readColumns(fd: number, head: Head, names: readonly string[], leading: ReadonlySet<string>): Map<string, Column> | string {
  const plan: { name: string; col: ColEntry; Ctor: ColumnCtor; at: number }[] = [];
  let total = 0;
  for (const name of names) {
    const col = head.cols.find((c) => Array.isArray(c) && c[0] === name);
    const Ctor = ctorOf(name);
    if (!col || !Ctor) return `column ${name} missing`;
    if (!Number.isSafeInteger(col[2]) || col[2] < 0) return `column ${name}: bad length`;
    const width = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    const lead = leading.has(name) ? width : 0;
    plan.push({ name, col, Ctor, at: total + lead });
    total += lead + col[2] * width + pad8(lead + col[2] * width);
  }
  const mem = systemBuffer(total);
  const out = new Map<string, Column>();
  for (const { name, col, Ctor, at } of plan) {
    const arr = new (Ctor as unknown as new (b: ArrayBuffer, at: number, n: number) => Column)(mem, at, col[2]);
    const why = readColumn(fd, head, col, arr);
    if (why) return `column ${name}: ${why}`;
    out.set(name, arr);
  }
  return out;
}

/** Column `col` into `arr` (its length), or why it cannot be read. */
function readColumn(fd: number, head: Head, col: ColEntry, arr: Column): string | undefined {
  const from = head.bodyAt + col[1];
  if (col.length === 3) {
    // Kept raw: read straight into place.
    if (from + arr.byteLength > head.end) return 'cut short';
    const into = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
    return readSync(fd, into, 0, into.length, from) === into.length ? undefined : 'cut short';
  }
  const enc = col[3];
  const width = Array.isArray(enc) && enc[0] !== 'c' && typeof enc[1] === 'number' ? enc[1] : 0;
  const bytes = Math.min(arr.length * width, Math.max(0, head.end - from));
  const buf = scratchOf(bytes).subarray(0, bytes);
  if (bytes > 0 && readSync(fd, buf, 0, bytes, from) !== bytes) return 'cut short';
  const done = decodeColumn(arr.constructor as ColumnCtor, arr.length, enc, buf, arr);
  return typeof done === 'string' ? done : undefined;
}
