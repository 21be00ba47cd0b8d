// The bytes of an index sidecar (sidecar.ts):
//   "CSIDX03\n", u32 LE number of delivery rows (read alone to size the tables before
//   loading), u32 LE length of the header, the header (JSON), zero padding to 8 bytes,
//   the columns (each padded to 8 bytes), then the CRC-32 of everything before it (u32 LE).
// The header holds the segment's length when the sidecar was written, the string tables,
// the delivery ids, the summaries kept whole, the events, the records that touch
// deliveries of older segments (replayed as they are), and where each column lies and
// how it is stored: [name, offset, values, encoding?], the encoding one of
// column-codec.ts (constant, small integers, small differences), none for a column kept
// as its typed array's little-endian bytes. "CSIDX02" files (every column kept so, no
// encodings) are still read.
import { crc32 } from 'node:zlib';
import { utf8Pieces } from '../utf8-pieces.js';
import { decodeColumn, encodeColumn, type Column, type ColumnCtor, type ColumnEncoding } from './column-codec.js';
import type { DeliverySummary, EventSummary } from '../history-types.js';
import type { ScannedRecord } from './records.js';
import { deliveryColumns, NUMBER_COLUMNS, STRING_COLUMNS, type RowColumns } from './delivery-row.js';
import type { EventRows } from './event-table.js';
import { plainArray, type ArrayMaker, type SystemArrayCtor } from './columns.js';

/** The sidecar file of the segment file at `segmentPath`. */
export function sidecarPath(segmentPath: string): string {
  return segmentPath.replace(/\.jsonl$/, '.idx');
}

const MAGIC = Buffer.from('CSIDX03\n');
/** The version before column encodings: every column raw. */
const MAGIC_V2 = Buffer.from('CSIDX02\n');
/** Bytes before the header: the magic, the row count, the header's length. */
export const PREFIX = MAGIC.length + 8;

export interface SidecarHeader {
  /** The segment's length in bytes that this index describes. */
  segBytes: number;
  /** Deliveries created in the segment (rotation by count). */
  created: number;
  nextDeliverySeq: number;
  nextEventSeq: number;
  strings: (string | null)[];
  eventIds: (string | null)[];
  /** How many deliveries are based in the segment (rows of the columns). */
  rows: number;
  /** Row number and id of each delivery whose id has a character above U+00FF (the others are in idBytes). */
  wideIds: [number, string][];
  /** Row number and summary of each delivery kept whole (not in the compact form). */
  odd: [number, DeliverySummary][];
  /** Each event kept whole (not in the compact form) whose latest record is in the segment: seq, summary, offset, length. */
  events: [number, EventSummary, number, number][];
  /** Records about deliveries based in older segments, in file order: record, offset, length. */
  foreign: [ScannedRecord, number, number][];
}

export interface SidecarData {
  header: SidecarHeader;
  rows: RowColumns;
  /** The rows' ids in Latin-1, one after the other; idLen per row (-1: in wideIds). */
  idBytes: Uint8Array;
  idLen: Int32Array;
  /** Per delivery, how many attempt locations follow in aOff/aLen/aItem (all in this segment). */
  aCount: Int32Array;
  aOff: Float64Array;
  aLen: Int32Array;
  aItem: Int32Array;
  /** The other events whose latest record is in the segment. */
  events: EventRows;
}

export const EVENT_NAMES = ['num', 'seq', 'ts', 'off', 'len', 'company', 'doc', 'type', 'sub', 'shape', 'flags'] as const;

function emptyEvents(): EventRows {
  const [f, i] = [() => new Float64Array(0), () => new Int32Array(0)];
  const [company, doc, type, sub, shape] = [i(), i(), i(), i(), i()];
  return { num: i(), seq: f(), ts: f(), off: f(), len: i(), company, doc, type, sub, shape, flags: new Uint8Array(0) };
}

const ROW_NAMES = [...NUMBER_COLUMNS, ...STRING_COLUMNS, 'evt'] as const;
export const pad8 = (n: number) => (8 - (n % 8)) % 8;
/** Padding's bytes (never written to). */
const ZEROS = new Uint8Array(8);

/** The columns' names in the order they are stored. */
const COLUMN_NAMES = [
  ...ROW_NAMES.map((n) => `r.${n}`),
  ...['idBytes', 'idLen', 'aCount', 'aOff', 'aLen', 'aItem'],
  ...EVENT_NAMES.map((n) => `e.${n}`),
];

/** Every column of a sidecar, by name, in the order they are stored. */
export function sidecarArrays(d: SidecarData): [string, Float64Array | Int32Array | Uint8Array][] {
  return [
    ...ROW_NAMES.map((n) => [`r.${n}`, d.rows[n]] as [string, Float64Array | Int32Array | Uint8Array]),
    ['idBytes', d.idBytes],
    ['idLen', d.idLen],
    ['aCount', d.aCount],
    ['aOff', d.aOff],
    ['aLen', d.aLen],
    ['aItem', d.aItem],
    ...EVENT_NAMES.map((n) => [`e.${n}`, d.events[n]] as [string, Float64Array | Int32Array | Uint8Array]),
  ];
}

/** Where a column lies and how it is stored: name, offset from the columns' start, values, encoding (none: raw). */
export type ColEntry = [string, number, number] | [string, number, number, ColumnEncoding];

/**
 * A sidecar's columns encoded (column-codec.ts) as they are added, in the order they are
 * stored (sidecarArrays'), each with its padding: what is kept of a closing segment from
 * the rotation until its sidecar is written (~1 MB for 25,000 deliveries, where copies of
 * its columns were ~3.6 MB), and what encodeSidecar writes.
 */
export class PackedColumns {
  readonly cols: ColEntry[] = [];
  /** Each column's bytes then its padding. */
  readonly parts: Uint8Array[] = [];
  private at = 0;

  /** Column `name`, next in order; `arr` may be a view of memory that changes later (its bytes are copied if kept raw) unless `owned`. */
  add(name: string, arr: Column, owned: boolean): void {
    if (name !== COLUMN_NAMES[this.cols.length]) throw new Error(`sidecar: column ${name} out of order`);
    const packed = encodeColumn(arr);
    // A plain Uint8Array view, made only for a column kept raw: a Buffer over a resizable
    // buffer gets a hidden class of its own in V8 11, a new one at each call.
    const raw = packed ? undefined : new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
    const bytes = packed ? packed.bytes : owned ? (raw as Uint8Array) : (raw as Uint8Array).slice();
    this.cols.push(packed ? [name, this.at, arr.length, packed.enc] : [name, this.at, arr.length]);
    this.parts.push(bytes, ZEROS.subarray(0, pad8(bytes.length)));
    this.at += bytes.length + pad8(bytes.length);
  }

  /**
   * Column `name` of `n` values all `v` (NaN, or finite and not -0): what add() stores for
   * such a column, without the column (the close's copy does not copy a constant one).
   */
  addConstant(name: string, n: number, v: number): void {
    if (name !== COLUMN_NAMES[this.cols.length]) throw new Error(`sidecar: column ${name} out of order`);
    this.cols.push([name, this.at, n, ['c', Number.isNaN(v) ? null : v]]);
    this.parts.push(ZEROS.subarray(0, 0), ZEROS.subarray(0, 0));
  }

  /** Only columns `names` decoded again (those kept raw: views of their bytes), or why one cannot be. */
  decoded(header: SidecarHeader, names: readonly string[]): Map<string, Column> | string {
    const like = new Map(template(header));
    const out = new Map<string, Column>();
    for (const name of names) {
      const k = this.cols.findIndex((c) => c[0] === name);
      const arr =
        k < 0 || !like.has(name) ? 'missing' : readColumn(this.parts[2 * k], this.cols[k], like.get(name) as Column, true, plainArray);
      if (typeof arr === 'string') return `column ${name}: ${arr}`;
      out.set(name, arr);
    }
    return out;
  }

  /** The columns decoded again, with `header`, as decodeSidecar would read them from the file (those kept raw: views of their bytes). */
  data(header: SidecarHeader): SidecarData | string {
    // Columns kept raw are read in place (the ids' bytes, ~750 KB for 25,000 deliveries, not copied again).
    return assemble(header, this.cols, (col) => this.parts[2 * this.cols.indexOf(col)], true);
  }
}

/** A sidecar's whole data encoded (its arrays are its own). */
export function encodeSidecar(d: SidecarData): Uint8Array[] {
  const packed = new PackedColumns();
  for (const [name, arr] of sidecarArrays(d)) packed.add(name, arr, true);
  return sidecarPieces(d.header, packed);
}

/**
 * The sidecar's bytes as the pieces to write in order, the checksum last. The columns are
 * written as they were encoded: joining them (twice, for the checksum) made copies of the
 * whole file in C memory at every segment rotation.
 */
export function sidecarPieces(header: SidecarHeader, packed: PackedColumns): Uint8Array[] {
  // The header (ids, string tables, foreign records: MBs for a full segment) in pieces too.
  const head = JSON.stringify({ ...header, cols: packed.cols });
  const headBytes = Buffer.byteLength(head, 'utf8');
  const len = Buffer.alloc(8);
  len.writeUInt32LE(header.rows, 0);
  len.writeUInt32LE(headBytes, 4);
  const before = PREFIX + headBytes;
  const pieces = [MAGIC, len, ...utf8Pieces(head), Buffer.alloc(pad8(before)), ...packed.parts];
  let crc = 0;
  // Empty pieces are left out: zlib.crc32 answers 0 for an empty view of an ArrayBuffer
  // with no memory (an empty column's), which would restart the running checksum.
  for (const p of pieces) if (p.length > 0) crc = crc32(p, crc);
  const sum = Buffer.alloc(4);
  sum.writeUInt32LE(crc);
  pieces.push(sum);
  return pieces;
}

/** The number of delivery rows a sidecar says it has, from its first bytes (0 if they are not a sidecar's). */
export function sidecarRows(first: Buffer): number {
  return first.length >= PREFIX && isMagic(first) ? first.readUInt32LE(MAGIC.length) : 0;
}

/** Whether `buf` starts with a sidecar's magic (this version's or CSIDX02). */
export function isMagic(buf: Buffer): boolean {
  const head = buf.subarray(0, MAGIC.length);
  return head.equals(MAGIC) || head.equals(MAGIC_V2);
}

/** Column `col` (its entry in the header) as a typed array like `like`, from `bytes` (where it starts; undefined: past the end), or why it cannot be read. */
function readColumn(bytes: Uint8Array | undefined, col: ColEntry, like: Column, view: boolean, arrays: ArrayMaker): Column | string {
  const Ctor = like.constructor as ColumnCtor;
  if (!bytes) return 'cut short';
  if (col.length === 4) return decodeColumn(Ctor, col[2], col[3], bytes, arrays(Ctor as unknown as SystemArrayCtor<Column>, col[2]));
  const width = like.BYTES_PER_ELEMENT;
  if (view && bytes.byteOffset % width === 0 && bytes.length >= col[2] * width)
    return new (Ctor as unknown as new (b: ArrayBufferLike, at: number, n: number) => Column)(bytes.buffer, bytes.byteOffset, col[2]);
  if (col[2] * width > bytes.length) return 'cut short';
  const arr = arrays(Ctor as unknown as SystemArrayCtor<Column>, col[2]);
  new Uint8Array(arr.buffer).set(bytes.subarray(0, arr.byteLength));
  return arr;
}

/** A sidecar's data from `buf` if it describes a segment of `fileSize` bytes, or why it cannot be used. */
export function decodeSidecarFor(buf: Buffer, fileSize: number, arrays: ArrayMaker = plainArray): SidecarData | string {
  const data = decodeSidecar(buf, arrays);
  if (typeof data === 'string' || data.header.segBytes === fileSize) return data;
  return `it describes ${data.header.segBytes} bytes of a segment of ${fileSize}`;
}

/** The sidecar in `buf`, or the reason it cannot be used. */
export function decodeSidecar(buf: Buffer, arrays: ArrayMaker = plainArray): SidecarData | string {
  if (buf.length < PREFIX + 4 || !isMagic(buf)) return 'not an index file of this version';
  if (crc32(buf.subarray(0, buf.length - 4)) !== buf.readUInt32LE(buf.length - 4)) return 'checksum mismatch';
  const headLen = buf.readUInt32LE(MAGIC.length + 4);
  const headAt = PREFIX;
  let parsed: SidecarHeader & { cols: ColEntry[] };
  try {
    parsed = JSON.parse(buf.toString('utf8', headAt, headAt + headLen)) as typeof parsed;
  } catch {
    return 'unreadable header';
  }
  const { cols, ...header } = parsed;
  const bodyAt = headAt + headLen + pad8(headAt + headLen);
  if (header.rows !== buf.readUInt32LE(MAGIC.length)) return 'row counts differ';
  const end = buf.length - 4;
  return assemble(header, cols, (col) => (bodyAt + col[1] > end ? undefined : buf.subarray(bodyAt + col[1], end)), false, arrays);
}

/** An empty array of each column's type, by name, in the order they are stored. */
function template(header: SidecarHeader): [string, Column][] {
  const empty = deliveryColumns(0);
  return sidecarArrays({
    header,
    rows: empty,
    idBytes: empty.status,
    idLen: empty.attempts,
    aCount: empty.attempts,
    aOff: empty.seq,
    aLen: empty.attempts,
    aItem: empty.attempts,
    events: emptyEvents(),
  });
}

/** A sidecar's data from its header and each column's bytes (`bytesOf`), or the reason it cannot be used. */
function assemble(
  header: SidecarHeader,
  cols: ColEntry[],
  bytesOf: (col: ColEntry) => Uint8Array | undefined,
  view = false,
  arrays: ArrayMaker = plainArray,
): SidecarData | string {
  const out: Record<string, Float64Array | Int32Array | Uint8Array> = {};
  for (const [name, like] of template(header)) {
    const col = cols.find((c) => c[0] === name);
    if (!col) return `column ${name} missing`;
    const arr = readColumn(bytesOf(col), col, like, view, arrays);
    if (typeof arr === 'string') return `column ${name}: ${arr}`;
    out[name] = arr;
  }
  const rows = Object.fromEntries(ROW_NAMES.map((n) => [n, out[`r.${n}`]])) as unknown as RowColumns;
  const n = header.rows;
  if (ROW_NAMES.some((name) => rows[name].length !== n) || out.aCount.length !== n || out.idLen.length !== n)
    return 'columns of different lengths';
  const idLen = out.idLen as Int32Array;
  const events = Object.fromEntries(EVENT_NAMES.map((name) => [name, out[`e.${name}`]])) as unknown as EventRows;
  if (EVENT_NAMES.some((name) => events[name].length !== events.num.length)) return 'event columns of different lengths';
  if (idLen.reduce((sum, l) => sum + Math.max(0, l), 0) !== out.idBytes.length) return 'ids of the wrong length';
  return {
    header,
    rows,
    idBytes: out.idBytes as Uint8Array,
    idLen,
    aCount: out.aCount as Int32Array,
    aOff: out.aOff as Float64Array,
    aLen: out.aLen as Int32Array,
    aItem: out.aItem as Int32Array,
    events,
  };
}
