// The bytes of an index sidecar (sidecar.ts):
//   "CSIDX01\n", u32 LE length of the header, the header (JSON), zero padding to 8 bytes,
//   the columns (each a little-endian typed array, padded to 8 bytes), then the CRC-32 of
//   everything before it (u32 LE).
// The header holds the segment's length when the sidecar was written, the string tables,
// the delivery ids, the summaries kept whole, the events, the records that touch
// deliveries of older segments (replayed as they are), and where each column lies.
import { crc32 } from 'node:zlib';
import type { DeliverySummary, EventSummary } from '../history-types.js';
import type { ScannedRecord } from './records.js';
import { deliveryColumns, NUMBER_COLUMNS, STRING_COLUMNS, type RowColumns } from './delivery-row.js';

const MAGIC = Buffer.from('CSIDX01\n');

export interface SidecarHeader {
  /** The segment's length in bytes that this index describes. */
  segBytes: number;
  /** Deliveries created in the segment (rotation by count). */
  created: number;
  nextDeliverySeq: number;
  nextEventSeq: number;
  strings: (string | null)[];
  eventIds: (string | null)[];
  /** The deliveries based in the segment, in column order. */
  ids: string[];
  /** Row number and summary of each delivery kept whole (not in the compact form). */
  odd: [number, DeliverySummary][];
  /** Each event whose latest record is in the segment: seq, summary, offset, length. */
  events: [number, EventSummary, number, number][];
  /** Records about deliveries based in older segments, in file order: record, offset, length. */
  foreign: [ScannedRecord, number, number][];
}

export interface SidecarData {
  header: SidecarHeader;
  rows: RowColumns;
  /** Per delivery, how many attempt locations follow in aOff/aLen/aItem (all in this segment). */
  aCount: Int32Array;
  aOff: Float64Array;
  aLen: Int32Array;
  aItem: Int32Array;
}

const ROW_NAMES = [...NUMBER_COLUMNS, ...STRING_COLUMNS, 'evt'] as const;
const pad8 = (n: number) => (8 - (n % 8)) % 8;

function arraysOf(d: SidecarData): [string, Float64Array | Int32Array | Uint8Array][] {
  return [
    ...ROW_NAMES.map((n) => [`r.${n}`, d.rows[n]] as [string, Float64Array | Int32Array | Uint8Array]),
    ['aCount', d.aCount],
    ['aOff', d.aOff],
    ['aLen', d.aLen],
    ['aItem', d.aItem],
  ];
}

export function encodeSidecar(d: SidecarData): Buffer {
  const cols: [string, number, number][] = [];
  const parts: Buffer[] = [];
  let at = 0;
  for (const [name, arr] of arraysOf(d)) {
    const bytes = Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength);
    cols.push([name, at, arr.length]);
    parts.push(bytes, Buffer.alloc(pad8(bytes.length)));
    at += bytes.length + pad8(bytes.length);
  }
  const head = Buffer.from(JSON.stringify({ ...d.header, cols }));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  const before = MAGIC.length + 4 + head.length;
  const body = Buffer.concat([MAGIC, len, head, Buffer.alloc(pad8(before)), ...parts]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32LE(crc32(body));
  return Buffer.concat([body, sum]);
}

/** The sidecar in `buf`, or the reason it cannot be used. */
export function decodeSidecar(buf: Buffer): SidecarData | string {
  if (buf.length < MAGIC.length + 8 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return 'not an index file of this version';
  if (crc32(buf.subarray(0, buf.length - 4)) !== buf.readUInt32LE(buf.length - 4)) return 'checksum mismatch';
  const headLen = buf.readUInt32LE(MAGIC.length);
  const headAt = MAGIC.length + 4;
  let parsed: SidecarHeader & { cols: [string, number, number][] };
  try {
    parsed = JSON.parse(buf.toString('utf8', headAt, headAt + headLen)) as typeof parsed;
  } catch {
    return 'unreadable header';
  }
  const { cols, ...header } = parsed;
  const bodyAt = headAt + headLen + pad8(headAt + headLen);
  const empty = deliveryColumns(0);
  const template = arraysOf({ header, rows: empty, aCount: empty.attempts, aOff: empty.seq, aLen: empty.attempts, aItem: empty.attempts });
  const out: Record<string, Float64Array | Int32Array | Uint8Array> = {};
  for (const [name, like] of template) {
    const col = cols.find((c) => c[0] === name);
    if (!col) return `column ${name} missing`;
    const Ctor = like.constructor as new (n: number) => Float64Array | Int32Array | Uint8Array;
    const arr = new Ctor(col[2]);
    const from = bodyAt + col[1];
    if (from + arr.byteLength > buf.length - 4) return `column ${name} cut short`;
    new Uint8Array(arr.buffer).set(buf.subarray(from, from + arr.byteLength));
    out[name] = arr;
  }
  const rows = Object.fromEntries(ROW_NAMES.map((n) => [n, out[`r.${n}`]])) as unknown as RowColumns;
  const n = header.ids.length;
  if (ROW_NAMES.some((name) => rows[name].length !== n) || out.aCount.length !== n) return 'columns of different lengths';
  return {
    header,
    rows,
    aCount: out.aCount as Int32Array,
    aOff: out.aOff as Float64Array,
    aLen: out.aLen as Int32Array,
    aItem: out.aItem as Int32Array,
  };
}
