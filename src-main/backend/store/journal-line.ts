// One journal line: the changes of one group commit. Two formats are read:
//   v2 (written now):  `#2 <crc32 of the JSON, 8 hex digits> <JSON>`
//   v1 (older files):  `<JSON>`, a line starting with `[`, with no checksum.
// The JSON is a list of ops `[collection, key, record or null for removed]`. A line is
// trusted only if its checksum matches (v2), it parses, and every op names a known
// collection with a record of the right shape: anything else is reported as damaged,
// never applied, so a flipped byte or a foreign line cannot reach the state.
import { crc32 } from 'node:zlib';

/** Collections journaled record by record, and the field that names a record. */
export const KEYED = {
  companies: 'id',
  users: 'id',
  api_keys: 'id',
  subscriptions: 'public_id',
  documents: 'public_id',
  pending_events: 'id',
  pending_deliveries: 'id',
  notifications: 'id',
} as const;
export type Collection = keyof typeof KEYED;
/** What a journal line can change: a record of a keyed collection, or one key of `extensions`. */
export type Target = Collection | 'extensions';

/** [collection, key, record or null for removed] */
export type Op = [Target, string, unknown];

const V2 = '#2 ';

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/** The line (with its newline) for `ops`. */
export function encodeLine(ops: Op[]): string {
  const json = JSON.stringify(ops);
  return `${V2}${hex8(crc32(json))} ${json}\n`;
}

/** Text gathered before it is encoded into a piece of a line (UTF-8: at most 3 bytes a character). */
const PIECE_CHARS = 16 * 1024;
const NEWLINE = Buffer.from('\n');

/**
 * encodeLine(ops)'s bytes, in pieces of about PIECE_CHARS characters cut between ops: a
 * group commit of 50 PUTs fanned out to 50 subscriptions is a line of ~0.6 MB, and as one
 * string it went straight to V8's old generation (twice: the JSON and the line), then
 * into a buffer of its own; the pieces are small and short-lived. The checksum is worked
 * out piece by piece. JSON.stringify escapes lone surrogates, so the JSON is well-formed
 * text and its UTF-8 bytes are exactly those of the whole line's.
 */
export function encodeLineParts(ops: Iterable<Op>): Buffer[] {
  const parts: Buffer[] = [Buffer.alloc(0)];
  let crc = 0;
  let text = '[';
  let first = true;
  const cut = () => {
    const piece = Buffer.from(text, 'utf8');
    crc = crc32(piece, crc);
    parts.push(piece);
    text = '';
  };
  for (const op of ops) {
    text += (first ? '' : ',') + JSON.stringify(op);
    first = false;
    if (text.length >= PIECE_CHARS) cut();
  }
  text += ']';
  cut();
  parts[0] = Buffer.from(`${V2}${hex8(crc)} `);
  parts.push(NEWLINE);
  return parts;
}

export type Decoded = { ops: Op[] } | { error: string };

/** Reads one line (without its newline). */
export function decodeLine(line: string): Decoded {
  let json: string;
  if (line.startsWith(V2)) {
    const sum = line.slice(V2.length, V2.length + 8);
    json = line.slice(V2.length + 9);
    if (line[V2.length + 8] !== ' ' || !/^[0-9a-f]{8}$/.test(sum)) return { error: 'malformed checksum' };
    if (hex8(crc32(json)) !== sum) return { error: 'checksum mismatch' };
  } else if (line.startsWith('[')) {
    json = line; // v1: no checksum
  } else {
    return { error: 'not a journal line of a format this version knows' };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { error: 'not valid JSON' };
  }
  const problem = checkOps(value);
  return problem ? { error: problem } : { ops: value as Op[] };
}

function checkOps(value: unknown): string | null {
  if (!Array.isArray(value)) return 'not a list of changes';
  for (const op of value) {
    if (!Array.isArray(op) || op.length !== 3 || typeof op[1] !== 'string') return 'a change is not [collection, key, record]';
    const [target, key, record] = op as [unknown, string, unknown];
    if (target === 'extensions') continue;
    if (typeof target !== 'string' || !Object.hasOwn(KEYED, target)) return `unknown collection ${JSON.stringify(target)}`;
    if (record === null) continue;
    if (typeof record !== 'object' || Array.isArray(record)) return `a ${target} record is not an object`;
    if ((record as Record<string, unknown>)[KEYED[target as Collection]] !== key) return `a ${target} record does not carry its key ${key}`;
  }
  return null;
}

/** Record ids a damaged line seems to name (best effort, for the report). */
export function idsIn(text: string, max = 20): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/"((?:doc|wh|evt|msg|co|usr|key|ntf|rcp|inb)_[A-Za-z0-9]+)"/g)) {
    found.add(m[1]);
    if (found.size >= max) break;
  }
  return [...found];
}
