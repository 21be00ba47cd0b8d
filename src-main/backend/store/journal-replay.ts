// Recovery: applies the journals that continue a checkpoint, line by line. A torn last
// line (a crash mid-append, never acknowledged) is cut off. A complete line that is
// damaged (checksum, JSON, or a shape this version does not know) is skipped and
// reported: the lines after it each stand alone (a line holds whole records, the last
// state wins), so every intact later commit is recovered instead of being dropped with
// it. A journal that held damage is first copied aside (`journal-N.jsonl.damaged-<time>`),
// untouched, so the bytes can still be examined after the next checkpoint deletes it.
import { closeSync, copyFileSync, ftruncateSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import type { DbData } from './schema.js';
import { decodeLine, idsIn, KEYED, type Collection, type Op } from './journal-line.js';
import { journalPath } from './journal.js';
import { asideName, explainFsError } from './store-errors.js';

const FILE = /^journal-(\d+)\.jsonl$/;

/** One damaged line of a journal. */
export interface LineDamage {
  line: number;
  reason: string;
  /** Record ids the line seems to name: their changes on that line are lost. */
  ids: string[];
}

/** A journal file that held damaged lines, and where its untouched copy was kept. */
export interface JournalDamage {
  file: string;
  keptAt: string;
  lines: LineDamage[];
  /** Complete lines after the first damaged one that were applied. */
  recoveredAfter: number;
}

export interface ReplayResult {
  replayed: number;
  tornBytes: number;
  damage: JournalDamage[];
}

/** Generations of the journal files in `dir`, oldest first. */
export function journalGenerations(dir: string): number[] {
  return readdirSync(dir)
    .map((f) => FILE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/**
 * Applies every journal of generation >= `data.journal_generation` to `data`
 * (synchronously). Journals older than `keepFrom` are deleted: a checkpoint holds them.
 */
export function replayJournals(dir: string, data: DbData, nowMs: number, keepFrom = data.journal_generation ?? 0): ReplayResult {
  const base = data.journal_generation ?? 0;
  const result: ReplayResult = { replayed: 0, tornBytes: 0, damage: [] };
  for (const gen of journalGenerations(dir)) {
    const path = journalPath(dir, gen);
    if (gen < base) {
      if (gen < keepFrom) unlinkSync(path);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw explainFsError(path, err, 'a journal file');
    }
    const r = replayFile(text, data);
    result.replayed += r.replayed;
    if (r.damaged.length > 0) {
      const keptAt = asideName(path, 'damaged', nowMs);
      copyFileSync(path, keptAt);
      result.damage.push({ file: path, keptAt, lines: r.damaged, recoveredAfter: r.after });
    }
    if (r.good < Buffer.byteLength(text)) {
      result.tornBytes += Buffer.byteLength(text) - r.good;
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, r.good);
      } finally {
        closeSync(fd);
      }
    }
    data.journal_generation = gen;
  }
  return result;
}

function replayFile(text: string, data: DbData): { replayed: number; good: number; damaged: LineDamage[]; after: number } {
  let replayed = 0;
  let after = 0;
  const damaged: LineDamage[] = [];
  let lineNo = 0;
  let start = 0;
  for (; start < text.length;) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) break; // torn last line: never acknowledged
    lineNo++;
    const line = text.slice(start, nl);
    start = nl + 1;
    if (line.length === 0) continue;
    const decoded = decodeLine(line);
    if ('error' in decoded) {
      damaged.push({ line: lineNo, reason: decoded.error, ids: idsIn(line) });
      continue;
    }
    apply(data, decoded.ops);
    replayed++;
    if (damaged.length > 0) after++;
  }
  // Everything up to the last newline is kept (damaged lines included: the copy aside
  // holds them, and the checkpoint that follows replaces the file).
  return { replayed, good: Buffer.byteLength(text.slice(0, start)), damaged, after };
}

function apply(data: DbData, ops: Op[]): void {
  const indexes = new Map<Collection, Map<string, number>>();
  const removed = new Set<Collection>();
  for (const [c, key, record] of ops) {
    if (c === 'extensions') {
      if (record === null) delete data.extensions[key];
      else data.extensions[key] = record;
      continue;
    }
    const arr = data[c] as unknown as Record<string, unknown>[];
    let index = indexes.get(c);
    if (!index) {
      index = new Map(arr.map((r, i) => [r?.[KEYED[c]] as string, i]));
      indexes.set(c, index);
    }
    const at = index.get(key);
    if (record === null) {
      if (at !== undefined) {
        arr[at] = undefined as never;
        index.delete(key);
        removed.add(c);
      }
    } else if (at !== undefined) {
      arr[at] = record as Record<string, unknown>;
    } else {
      index.set(key, arr.push(record as Record<string, unknown>) - 1);
    }
  }
  for (const c of removed) (data as unknown as Record<string, unknown[]>)[c] = (data[c] as unknown[]).filter((r) => r !== undefined);
}

/** One paragraph for the start-up report: which file, which lines, which records were lost. */
export function describeDamage(d: JournalDamage): string {
  const lines = d.lines.map((l) => `line ${l.line} (${l.reason}${l.ids.length ? `; it named ${l.ids.join(', ')}` : ''})`).join('; ');
  return (
    `The journal ${d.file} had ${d.lines.length} damaged line${d.lines.length === 1 ? '' : 's'}: ${lines}. ` +
    `The changes on ${d.lines.length === 1 ? 'that line are' : 'those lines are'} lost; ` +
    `the ${d.recoveredAfter} intact commit${d.recoveredAfter === 1 ? '' : 's'} after it were recovered. ` +
    `The file was kept unchanged at ${d.keptAt}.`
  );
}
