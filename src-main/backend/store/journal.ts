// The store's write-ahead journal. A group commit appends ONE line holding every
// record it changed (so a commit is atomic: a torn last line is dropped whole) and
// fdatasyncs it; the cost is that of the change, not of the whole store. Now and then
// the full state is checkpointed into data.json (lowdb's file) and a new journal
// generation starts. Recovery (journal-replay.ts) = data.json + every journal of its
// generation or later. Each line carries a checksum (journal-line.ts).
// Guards against: losing an answered change (fsync before the answer), a torn append
// corrupting later lines (the file is cut back to its last good length), and an old
// journal being replayed over a newer checkpoint (generations).
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { writeParts } from './write-parts.js';
import { join } from 'node:path';
import { encodeLineParts, type Op, type Target } from './journal-line.js';

export const journalPath = (dir: string, gen: number) => join(dir, `journal-${gen}.jsonl`);

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
  /** One line, in pieces (encodeLineParts); records are serialised now, in their current state. */
  toLine(): Buffer[] {
    return encodeLineParts(this.ops());
  }

  private *ops(): Generator<Op> {
    for (const [c, m] of this.changes) for (const [key, record] of m) yield [c, key, record];
  }
}

/** The open journal file of the current generation. */
export class JournalFile {
  private handle: FileHandle | null = null;
  private size = 0;
  /** Length of the last line appended (0: none to take back). */
  private last = 0;
  constructor(
    private readonly dir: string,
    public generation: number,
  ) {}

  get bytes(): number {
    return this.size;
  }

  /** Appends one line (ChangeSet.toLine: its pieces, written together) and makes it durable. */
  async append(line: Buffer[]): Promise<void> {
    if (!this.handle) {
      this.handle = await open(journalPath(this.dir, this.generation), 'a', 0o600);
      this.size = (await this.handle.stat()).size;
    }
    this.last = 0;
    try {
      const bytes = await writeParts(this.handle, line, this.size, 'the journal');
      await this.handle.datasync();
      this.size += bytes;
      this.last = bytes;
    } catch (err) {
      // Cut a partial line off, so the next append starts on a clean line.
      await this.handle.truncate(this.size).catch(() => undefined);
      throw err;
    }
  }

  /** Takes the last appended line back (the rest of its commit failed): all or nothing. */
  async undoLast(): Promise<void> {
    if (!this.handle || this.last === 0) return;
    await this.handle.truncate(this.size - this.last);
    await this.handle.datasync();
    this.size -= this.last;
    this.last = 0;
  }

  /** Starts generation `next`; the old file is deleted once the checkpoint holding it is durable. */
  async rotate(next: number): Promise<void> {
    const old = this.generation;
    await this.close();
    this.generation = next;
    // The new generation starts empty. Left at the old size, `bytes` stayed past the
    // store's checkpoint threshold, and every later commit checkpointed the whole state.
    this.size = 0;
    // The journal that continues the previous checkpoint (data.json.prev) is kept until the
    // next one: with it, a damaged data.json can be rebuilt from data.json.prev (recovery.ts).
    await unlink(journalPath(this.dir, old - 1)).catch(() => undefined);
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.close();
  }
}
