// A lowdb adapter that survives power loss and refuses to destroy data.
// Guards against: a torn or half-written store (write to a temp file, fsync it, then
// rename over the old one and fsync the folder), and a corrupt store being silently
// overwritten (it is moved aside under a new name and reported, never written over).
import { copyFile, link, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { systemClock } from '../clock.js';
import { textPieces } from './utf8-pieces.js';
import { writeParts } from './write-parts.js';

/**
 * UTF-16 units of the text encoded and written at a time (at most 3 bytes each, so a
 * piece's bytes stay under 128 KiB). Writing the whole text at once made a copy of it in
 * C memory (several MB while deliveries are pending), at every checkpoint.
 */
const PIECE_CHARS = 42 * 1024;

export class CorruptStoreError extends Error {
  override name = 'CorruptStoreError';
}

export interface ReadOutcome<T> {
  data: T | null;
  /** Where a corrupt file was moved, if one was found. */
  keptAsidePath?: string;
  reason?: string;
}

export class DurableJsonFile<T> implements Adapter<T> {
  /** Set by read() when the file on disk was corrupt and moved aside. */
  lastRead: ReadOutcome<T> = { data: null };
  /** Length of the JSON text last read or written (the store sizes its checkpoints by it). */
  lastTextChars = 0;

  constructor(
    readonly path: string,
    /** Returns a reason when the parsed value is not a store this program can use. */
    private readonly validate: (value: unknown) => string | null,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return (this.lastRead = { data: null }).data;
      throw err;
    }
    this.lastTextChars = text.length;
    let reason: string | null;
    let value: unknown;
    try {
      value = JSON.parse(text);
      reason = this.validate(value);
    } catch (err) {
      reason = `not valid JSON (${(err as Error).message})`;
    }
    if (reason === null) return (this.lastRead = { data: value as T }).data;
    const aside = join(
      dirname(this.path),
      `${basename(this.path)}.corrupt-${new Date(systemClock.now()).toISOString().replace(/[:.]/g, '-')}`,
    );
    await rename(this.path, aside);
    this.lastRead = { data: null, keptAsidePath: aside, reason };
    return null;
  }

  /** The checkpoint before the current one (`<path>.prev`), if it is readable and valid. */
  async readPrevious(): Promise<{ data: T; path: string } | null> {
    const path = `${this.path}.prev`;
    try {
      const value: unknown = JSON.parse(await readFile(path, 'utf8'));
      return this.validate(value) === null ? { data: value as T, path } : null;
    } catch {
      return null;
    }
  }

  /** The current file becomes `<path>.prev` (a second name for it, so no copy and no window without either). */
  private async keepPrevious(): Promise<void> {
    const prev = `${this.path}.prev`;
    await unlink(prev).catch(() => undefined);
    await link(this.path, prev).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return; // the first checkpoint
      await copyFile(this.path, prev);
    });
  }

  async write(data: T): Promise<void> {
    await this.writeText(this.serialize(data));
  }

  /** The text write() would write (and its length noted for the store's sizing). */
  serialize(data: T): string {
    const text = JSON.stringify(data);
    this.lastTextChars = text.length;
    return text;
  }

  async writeText(text: string): Promise<void> {
    const tmp = `${this.path}.tmp`;
    const file = await open(tmp, 'w', 0o600);
    try {
      await writeInPieces(file, text);
      await file.datasync();
    } catch (err) {
      // A half-written copy (a full disk) is of no use, and it holds the space.
      await file.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
      throw err;
    } finally {
      await file.close().catch(() => undefined);
    }
    await this.keepPrevious();
    await rename(tmp, this.path);
    // The rename itself is only durable once the folder's entry is flushed.
    const dir = await open(dirname(this.path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

/** Writes `text` as UTF-8 through one small buffer, piece by piece (utf8-pieces.ts: a surrogate pair is never split). */
async function writeInPieces(file: FileHandle, text: string): Promise<void> {
  const buf = Buffer.allocUnsafeSlow(PIECE_CHARS * 3);
  for (const piece of textPieces(text, PIECE_CHARS)) {
    const bytes = buf.write(piece, 0, 'utf8');
    await writeParts(file, [buf.subarray(0, bytes)], null, 'data.json');
  }
}
