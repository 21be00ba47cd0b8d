// The store's write-ahead journal. A group commit appends ONE line holding every
// record it changed (so a commit is atomic: a torn last line is dropped whole) and
// fdatasyncs it; the cost is that of the change, not of the whole store. Now and then
// the full state is checkpointed into data.json (lowdb's file) and a new journal
// generation starts. Recovery = data.json + every journal of its generation or later.
// Guards against: losing an answered change (fsync before the answer), a torn append
// corrupting later lines (the file is cut back to its last good length), and an old
// journal being replayed over a newer checkpoint (generations).
import { closeSync, openSync, readdirSync, readFileSync, unlinkSync, ftruncateSync } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { DbData } from './schema.js';

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
type Op = [Target, string, unknown];

const FILE = /^journal-(\d+)\.jsonl$/;
export const journalPath = (dir: string, gen: number) => join(dir, `journal-${gen}.jsonl`);

/** Applies every journal of generation >= `data.journal_generation` to `data` (synchronously). */
export function replayJournals(dir: string, data: DbData): { replayed: number; tornBytes: number } {
  const base = data.journal_generation ?? 0;
  const gens = readdirSync(dir)
    .map((f) => FILE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  let replayed = 0;
  let tornBytes = 0;
  for (const gen of gens) {
    const path = journalPath(dir, gen);
    if (gen < base) {
      unlinkSync(path); // its changes are in the checkpoint
      continue;
    }
    const text = readFileSync(path, 'utf8');
    let good = 0;
    for (let start = 0; start < text.length;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) break; // torn last line: never acknowledged
      const line = text.slice(start, nl);
      let ops: Op[];
      try {
        ops = JSON.parse(line) as Op[];
      } catch {
        break; // a damaged line ends what can be trusted in this file
      }
      apply(data, ops);
      replayed++;
      start = nl + 1;
      good += Buffer.byteLength(line) + 1;
    }
    const size = Buffer.byteLength(text);
    if (good < size) {
      tornBytes += size - good;
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, good);
      } finally {
        closeSync(fd);
      }
    }
    data.journal_generation = gen;
  }
  return { replayed, tornBytes };
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
      index = new Map(arr.map((r, i) => [r[KEYED[c]] as string, i]));
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

/**
 * Changes recorded since the last append, one entry per record (the last state wins),
 * kept per collection so that recording one costs a map write and no key string.
 */
export class ChangeSet {
  private readonly changes = new Map<Target, Map<string, unknown>>();
  private count = 0;
  /** Records `record` (null: removed) as the state of `key` in `c`. */
  set(c: Target, key: string, record: unknown): void {
    let m = this.changes.get(c);
    if (!m) this.changes.set(c, (m = new Map()));
    const before = m.size;
    m.set(key, record);
    this.count += m.size - before;
  }
  get size(): number {
    return this.count;
  }
  clear(): void {
    this.changes.clear();
    this.count = 0;
  }
  /** One line; records are serialised now, in their current state. */
  toLine(): string {
    const ops: Op[] = [];
    for (const [c, m] of this.changes) for (const [key, record] of m) ops.push([c, key, record]);
    return JSON.stringify(ops) + '\n';
  }
}

/** The open journal file of the current generation. */
export class JournalFile {
  private handle: FileHandle | null = null;
  private size = 0;
  constructor(
    private readonly dir: string,
    public generation: number,
  ) {}

  get bytes(): number {
    return this.size;
  }

  async append(line: string): Promise<void> {
    if (!this.handle) {
      this.handle = await open(journalPath(this.dir, this.generation), 'a', 0o600);
      this.size = (await this.handle.stat()).size;
    }
    const buf = Buffer.from(line, 'utf8');
    try {
      await this.handle.write(buf, 0, buf.length, this.size);
      await this.handle.datasync();
      this.size += buf.length;
    } catch (err) {
      // Cut a partial line off, so the next append starts on a clean line.
      await this.handle.truncate(this.size).catch(() => undefined);
      throw err;
    }
  }

  /** Starts generation `next`; the old file is deleted once the checkpoint holding it is durable. */
  async rotate(next: number): Promise<void> {
    const old = this.generation;
    await this.close();
    this.generation = next;
    // The new generation starts empty. Left at the old size, `bytes` stayed past the
    // store's checkpoint threshold, and every later commit checkpointed the whole state.
    this.size = 0;
    await unlink(journalPath(this.dir, old)).catch(() => undefined);
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.close();
  }
}
