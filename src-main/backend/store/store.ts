// The live state: lowdb over a durable file, plus a write-ahead journal, with group
// commit. Mutations happen in memory (synchronously, so no two requests interleave
// inside one); the caller names the records it changed (put/drop) and awaits
// `commitChanges()`, which resolves once a journal line holding them is on disk.
// Commits that arrive while one is in flight share the next one, so 50 concurrent PUTs
// cost a few fsyncs, and each costs the size of its change, not of the store.
// `commit()` (no records named) checkpoints the whole state into data.json instead:
// always correct, for rare changes. The journal is folded into data.json when it grows
// (see checkpointDue).
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { DurableJsonFile } from './durable-file.js';
import { DataDirLock } from './data-dir-lock.js';
import { ChangeSet, JournalFile, replayJournals, type Collection } from './journal.js';
import { emptyData, type ApiKeyRecord, type DbData, type DocumentRecord, type SubscriptionRecord } from './schema.js';

const ARRAYS: (keyof DbData)[] = [
  'companies',
  'users',
  'api_keys',
  'subscriptions',
  'documents',
  'pending_events',
  'pending_deliveries',
  'notifications',
];
/** Past this (and see checkpointDue), the next commit checkpoints into data.json and starts a new journal. */
const CHECKPOINT_BYTES = 16 * 1024 * 1024;
/** Assumed size of a record in data.json until a checkpoint has measured it. */
const GUESS_BYTES_PER_ROW = 512;

function validateShape(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the top level is not an object';
  const v = value as Record<string, unknown>;
  if (v.schema_version !== 1) return `unknown schema_version ${JSON.stringify(v.schema_version)}`;
  for (const key of ARRAYS) if (!Array.isArray(v[key])) return `"${key}" is missing or not a list`;
  if (typeof v.extensions !== 'object' || v.extensions === null) return '"extensions" is missing';
  return null;
}

export interface StoreOptions {
  /** Journal size past which a checkpoint can be due (default 16 MiB); tests use a small one. */
  checkpointBytes?: number;
}

export interface StoreOpenResult {
  /** Set when a corrupt store file was found and moved aside. */
  warning?: string;
}

type Waiter = { resolve: () => void; reject: (e: unknown) => void };

export class Store {
  readonly db: Low<DbData>;
  private readonly file: DurableJsonFile<DbData>;
  private journal: JournalFile;
  private readonly changes = new ChangeSet();
  private lock?: DataDirLock;
  private writing: Promise<void> | null = null;
  private waiters: Waiter[] = [];
  private dirty = false;
  private checkpointNeeded = false;
  private readonly checkpointBytes: number;
  /** data.json bytes per record at the last checkpoint, to estimate what the next one costs. */
  private bytesPerRow = GUESS_BYTES_PER_ROW;
  /** Work that must be durable in the same write (the history log's flush). */
  private readonly alongside: (() => Promise<void>)[] = [];
  onBackgroundError: (err: unknown) => void = (err) => console.error('[store] background write failed:', err);
  /** Called after a failed write made the store reload its last good state. */
  readonly reloadListeners: (() => void)[] = [];

  // Indexes over the arrays, kept in step by the methods below.
  readonly documents = new Map<string, DocumentRecord>();
  readonly subscriptions = new Map<string, SubscriptionRecord>();
  readonly keysByHash = new Map<string, ApiKeyRecord>();

  constructor(
    readonly dataDir: string,
    options: StoreOptions = {},
  ) {
    this.checkpointBytes = options.checkpointBytes ?? CHECKPOINT_BYTES;
    this.file = new DurableJsonFile<DbData>(join(dataDir, 'data.json'), validateShape);
    this.db = new Low<DbData>(this.file, emptyData());
    this.journal = new JournalFile(dataDir, 0);
  }

  get data(): DbData {
    return this.db.data;
  }

  async open(): Promise<StoreOpenResult> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    this.lock = await DataDirLock.acquire(this.dataDir);
    try {
      await this.db.read();
      const aside = this.file.lastRead.keptAsidePath;
      // Journals continue a checkpoint; without a trustworthy one they are kept aside too.
      if (aside) this.moveJournalsAside(aside.slice(aside.lastIndexOf('.corrupt-')));
      replayJournals(this.dataDir, this.data);
    } catch (err) {
      await this.lock.release();
      throw err;
    }
    this.journal = new JournalFile(this.dataDir, this.data.journal_generation ?? 0);
    this.reindex();
    if (this.file.lastTextChars > 0 && this.rowCount() > 0) this.bytesPerRow = this.file.lastTextChars / this.rowCount();
    const aside = this.file.lastRead.keptAsidePath;
    if (!aside) return {};
    return {
      warning: `The store file was unreadable (${this.file.lastRead.reason}). It was kept unchanged at ${aside}; Countersign started with an empty store.`,
    };
  }

  private moveJournalsAside(suffix: string): void {
    for (const f of readdirSync(this.dataDir))
      if (/^journal-\d+\.jsonl$/.test(f)) renameSync(join(this.dataDir, f), join(this.dataDir, f + suffix));
  }

  /** Registers work (e.g. the history log's fsync) that every commit also waits for. */
  alsoFlush(fn: () => Promise<void>): void {
    this.alongside.push(fn);
  }

  reindex(): void {
    this.documents.clear();
    this.subscriptions.clear();
    this.keysByHash.clear();
    for (const d of this.data.documents) this.documents.set(d.public_id, d);
    for (const s of this.data.subscriptions) this.subscriptions.set(s.public_id, s);
    for (const k of this.data.api_keys) this.keysByHash.set(k.hash, k);
  }

  /** Names a record added or changed in memory, for the next journal line. */
  put(collection: Collection, record: object): void {
    this.changes.put(collection, record);
  }

  /** Names a record removed from memory, for the next journal line. */
  drop(collection: Collection, key: string): void {
    this.changes.drop(collection, key);
  }

  addDocument(doc: DocumentRecord): void {
    this.data.documents.push(doc);
    this.documents.set(doc.public_id, doc);
    this.put('documents', doc);
  }

  addSubscription(sub: SubscriptionRecord): void {
    this.data.subscriptions.push(sub);
    this.subscriptions.set(sub.public_id, sub);
    this.put('subscriptions', sub);
  }

  removeSubscription(id: string): void {
    this.data.subscriptions = this.data.subscriptions.filter((s) => s.public_id !== id);
    this.subscriptions.delete(id);
    this.drop('subscriptions', id);
  }

  addApiKey(key: ApiKeyRecord): void {
    this.data.api_keys.push(key);
    this.keysByHash.set(key.hash, key);
    this.put('api_keys', key);
  }

  removeApiKey(id: string): void {
    const key = this.data.api_keys.find((k) => k.id === id);
    if (!key) return;
    this.data.api_keys = this.data.api_keys.filter((k) => k.id !== id);
    this.keysByHash.delete(key.hash);
    this.drop('api_keys', id);
  }

  /** Resolves once the records named with put/drop (and everything before) are on disk. */
  commitChanges(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.kick();
    });
  }

  /** Resolves once the whole state is checkpointed (for changes not named with put/drop). */
  commit(): Promise<void> {
    this.checkpointNeeded = true;
    return this.commitChanges();
  }

  /** Schedules a journal write of the named changes that nobody waits for. */
  commitChangesSoon(): void {
    this.dirty = true;
    this.kick();
  }

  /** Schedules a checkpoint nobody waits for. */
  commitSoon(): void {
    this.checkpointNeeded = true;
    this.commitChangesSoon();
  }

  /** Waits for any write in flight (and those it triggers). */
  async settle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    await this.settle();
    this.checkpointNeeded = true;
    await this.flushOnce();
    await this.journal.close();
    await this.lock?.release();
    this.lock = undefined;
  }

  private kick(): void {
    if (this.writing) return;
    this.writing = this.loop().finally(() => {
      this.writing = null;
      // A commit asked for after the loop's last look (by a waiter's continuation, which
      // runs before this) found `writing` still set; without this it waited for the next caller.
      if (this.waiters.length > 0 || this.dirty) this.kick();
    });
  }

  private async loop(): Promise<void> {
    while (this.waiters.length > 0 || this.dirty) {
      const batch = this.waiters;
      this.waiters = [];
      this.dirty = false;
      try {
        await this.flushOnce();
        for (const w of batch) w.resolve();
      } catch (err) {
        // Nothing half-applied: every change made since the last good write is undone
        // by reloading that write, and everyone who made one is told it failed.
        const failed = [...batch, ...this.waiters];
        this.waiters = [];
        this.dirty = false;
        this.revertToDisk();
        if (failed.length === 0) this.onBackgroundError(err);
        for (const w of failed) w.reject(err);
      }
    }
  }

  private async flushOnce(): Promise<void> {
    const others = this.alongside.map((fn) => fn());
    if (this.checkpointNeeded || this.checkpointDue()) {
      this.checkpointNeeded = false;
      this.changes.clear(); // the checkpoint holds them
      const next = this.journal.generation + 1;
      this.data.journal_generation = next;
      const rows = this.rowCount();
      const written = this.db.write(); // serialised synchronously: a consistent snapshot
      this.bytesPerRow = this.file.lastTextChars / Math.max(1, rows);
      await Promise.all([written, ...others]);
      await this.journal.rotate(next);
    } else if (this.changes.size > 0) {
      const line = this.changes.toLine();
      this.changes.clear();
      await Promise.all([this.journal.append(line), ...others]);
    } else {
      await Promise.all(others);
    }
  }

  /**
   * A checkpoint rewrites the whole state, so past the threshold it also waits until the
   * journal is twice the state's estimated size: each journaled byte then pays for at
   * most half a byte of checkpoint. With the threshold alone, a large state (tens of
   * thousands of pending deliveries, ~10 MB) was serialised again - one synchronous
   * JSON.stringify of a few hundred ms - for every 16 MiB of churn.
   */
  private checkpointDue(): boolean {
    const bytes = this.journal.bytes;
    return bytes > this.checkpointBytes && bytes >= 2 * this.bytesPerRow * this.rowCount();
  }

  private rowCount(): number {
    let n = 0;
    for (const key of ARRAYS) n += (this.data[key] as unknown[]).length;
    return n;
  }

  private revertToDisk(): void {
    let data: DbData = emptyData();
    try {
      // Synchronous on purpose: no request may mutate the state being replaced.
      data = JSON.parse(readFileSync(this.file.path, 'utf8')) as DbData;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.onBackgroundError(err);
    }
    try {
      replayJournals(this.dataDir, data);
    } catch (err) {
      this.onBackgroundError(err);
    }
    this.changes.clear();
    this.checkpointNeeded = false;
    void this.journal.close();
    this.journal = new JournalFile(this.dataDir, data.journal_generation ?? 0);
    this.db.data = data;
    this.reindex();
    for (const fn of this.reloadListeners) fn();
  }
}
