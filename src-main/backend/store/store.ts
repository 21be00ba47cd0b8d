// The live state: typed tables in memory (table.ts) over a durable file (data.json,
// through lowdb) plus a write-ahead journal, with group commit. A change is made in
// memory, synchronously (so no two requests interleave inside one), through a table,
// which also names it for the next journal line; `commit()` resolves once a write
// holding it is on disk, `commitLater()` asks for a write nobody waits for. Commits
// that arrive while one is in flight share the next one, so 50 concurrent PUTs cost a
// few fsyncs, and each costs the size of its change, not of the store. Whether a write appends to the
// journal or checkpoints the whole state into data.json is the store's own decision (checkpointDue).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { DurableJsonFile } from './durable-file.js';
import { DataDirLock } from './data-dir-lock.js';
import { ChangeSet, JournalFile } from './journal.js';
import { readLastGoodSync, recoverState } from './recovery.js';
import { storageError } from './store-errors.js';
import type { HistoryMark, UndoableLog } from './history-types.js';
import type { ApiKeyTable, Extensions, Table } from './table.js';
import { COLLECTIONS, StoreState } from './state.js';
import {
  emptyData,
  type ApiKeyRecord,
  type Company,
  type DbData,
  type DocumentRecord,
  type Notification,
  type PendingDelivery,
  type PendingEvent,
  type SubscriptionRecord,
  type User,
} from './schema.js';

/** Past this (and see checkpointDue), the next write checkpoints into data.json and starts a new journal. */
const CHECKPOINT_BYTES = 16 * 1024 * 1024;
const GUESS_BYTES_PER_ROW = 512; // assumed size of a record in data.json until a checkpoint has measured it

function validateShape(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the top level is not an object';
  const v = value as Record<string, unknown>;
  if (v.schema_version !== 1) return `unknown schema_version ${JSON.stringify(v.schema_version)}`;
  for (const key of COLLECTIONS) if (!Array.isArray(v[key])) return `"${key}" is missing or not a list`;
  if (typeof v.extensions !== 'object' || v.extensions === null) return '"extensions" is missing';
  return null;
}

export interface StoreOptions {
  /** Journal size past which a checkpoint can be due (default 16 MiB); tests use a small one. */
  checkpointBytes?: number;
}

export interface StoreOpenResult {
  /** Problems found and what was done about them (a corrupt file kept aside, damaged journal lines). */
  warnings: string[];
}

type Waiter = { resolve: () => void; reject: (e: unknown) => void };

export class Store {
  private readonly db: Low<DbData>;
  private readonly file: DurableJsonFile<DbData>;
  private journal: JournalFile;
  private readonly changes = new ChangeSet();
  private lock?: DataDirLock;
  private writing: Promise<void> | null = null;
  private waiters: Waiter[] = [];
  private durableCallbacks: (() => void)[] = [];
  private dirty = false;
  private checkpointNeeded = false;
  private readonly checkpointBytes: number;
  /** data.json bytes per record at the last checkpoint, to estimate what the next one costs. */
  private bytesPerRow = GUESS_BYTES_PER_ROW;
  /** Work that must be durable in the same write (the history log's flush). */
  private readonly alongside: (() => Promise<void>)[] = [];
  private readonly reloadListeners: (() => void)[] = [];
  private log?: UndoableLog;
  private lastGoodMark?: HistoryMark;
  onBackgroundError: (err: unknown) => void = (err) => console.error('[store] background write failed:', err);

  private readonly state = new StoreState(this.changes);

  readonly companies: Table<Company> = this.state.tables.companies;
  readonly users: Table<User> = this.state.tables.users;
  readonly apiKeys: ApiKeyTable<ApiKeyRecord> = this.state.tables.api_keys;
  readonly subscriptions: Table<SubscriptionRecord> = this.state.tables.subscriptions;
  readonly documents: Table<DocumentRecord> = this.state.tables.documents;
  readonly pendingEvents: Table<PendingEvent> = this.state.tables.pending_events;
  readonly pendingDeliveries: Table<PendingDelivery> = this.state.tables.pending_deliveries;
  /** Newest last; capped (NOTIFICATION_CAP) by the domain, oldest dropped. */
  readonly notifications: Table<Notification> = this.state.tables.notifications;
  readonly extensions: Extensions = this.state.extensions;

  constructor(
    readonly dataDir: string,
    options: StoreOptions = {},
  ) {
    this.checkpointBytes = options.checkpointBytes ?? CHECKPOINT_BYTES;
    this.file = new DurableJsonFile<DbData>(join(dataDir, 'data.json'), validateShape);
    this.db = new Low<DbData>(this.file, emptyData());
    this.journal = new JournalFile(dataDir, 0);
  }

  async open(): Promise<StoreOpenResult> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    this.lock = await DataDirLock.acquire(this.dataDir);
    try {
      const recovered = await recoverState(this.dataDir, this.db, this.file);
      this.load(recovered.data);
      if (this.file.lastTextChars > 0 && this.rowCount() > 0) this.bytesPerRow = this.file.lastTextChars / this.rowCount();
      if (recovered.foldNow) {
        this.checkpointNeeded = true;
        await this.commit();
      }
      return { warnings: recovered.warnings };
    } catch (err) {
      await this.lock.release();
      this.lock = undefined;
      throw err;
    }
  }

  /** Registers work (e.g. the history log's fsync) that every write also waits for. */
  alsoFlush(fn: () => Promise<void>): void {
    this.alongside.push(fn);
  }

  /** The history log: flushed with every write, and cut back to the last good write when one fails. */
  attachLog(log: UndoableLog): void {
    this.alsoFlush(() => log.flush());
    this.log = log;
    this.lastGoodMark = log.mark();
  }

  /**
   * Called after a failed write made the store reload its last good state: every change
   * since that write is gone, and rows are new objects.
   */
  onReload(fn: () => void): void {
    this.reloadListeners.push(fn);
  }

  /**
   * Runs `fn` once everything changed so far is durable: after the next write (a commit
   * or a background one) succeeds, once those who awaited it have resumed. Never, if
   * that write fails (the store then reloads; see onReload).
   */
  whenDurable(fn: () => void): void {
    this.durableCallbacks.push(fn);
  }

  /** Resolves once every change made so far is on disk. */
  commit(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.kick();
    });
  }

  /** Writes every change made so far in the background; nobody waits for it. */
  commitLater(): void {
    this.dirty = true;
    this.kick();
  }

  /** Waits for any write in flight (and those it triggers). */
  async settle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /**
   * A last checkpoint, then the lock goes. When the checkpoint cannot be written (a full
   * disk) the journal still holds every acknowledged change, so stopping goes on.
   */
  async close(): Promise<void> {
    try {
      await this.settle();
      this.checkpointNeeded = true;
      await this.flushOnce();
    } catch (err) {
      this.onBackgroundError(err);
    } finally {
      await this.journal.close().catch(() => undefined);
      await this.lock?.release();
      this.lock = undefined;
    }
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
      const callbacks = this.durableCallbacks;
      this.waiters = [];
      this.durableCallbacks = [];
      this.dirty = false;
      const mark = this.log?.mark();
      try {
        await this.flushOnce();
        this.lastGoodMark = mark ?? this.lastGoodMark;
        for (const w of batch) w.resolve();
        if (callbacks.length > 0) queueMicrotask(() => this.runCallbacks(callbacks));
      } catch (err) {
        // Nothing half-applied: the history log is cut back to the last good write, every
        // change made since that write is undone by reloading it, and everyone who made
        // one (until now) is told it failed.
        if (this.log && this.lastGoodMark) await this.log.rollback(this.lastGoodMark).catch((e: unknown) => this.onBackgroundError(e));
        const failed = [...batch, ...this.waiters];
        this.waiters = [];
        this.durableCallbacks = [];
        this.dirty = false;
        this.revertToDisk();
        if (failed.length === 0) this.onBackgroundError(err);
        const reason = storageError(err);
        for (const w of failed) w.reject(reason);
      }
    }
  }

  private runCallbacks(callbacks: (() => void)[]): void {
    for (const fn of callbacks) {
      try {
        fn();
      } catch (err) {
        this.onBackgroundError(err);
      }
    }
  }

  private async flushOnce(): Promise<void> {
    const others = this.alongside.map((fn) => fn());
    if (this.checkpointNeeded || this.checkpointDue()) {
      this.checkpointNeeded = false;
      this.changes.clear(); // the checkpoint holds them
      const next = this.journal.generation + 1;
      const rows = this.rowCount();
      const text = this.file.serialize(this.state.snapshot(next)); // now: a consistent snapshot
      this.bytesPerRow = text.length / Math.max(1, rows);
      // The history first: a checkpoint holding changes whose history failed would keep them.
      await Promise.all(others);
      await this.file.writeText(text);
      await this.journal.rotate(next);
    } else if (this.changes.size > 0) {
      const line = this.changes.toLine();
      this.changes.clear();
      // The log's records reach their file first: a journal line a crash kept never names an event whose deliveries (log lines) it lost.
      const append = (this.log?.writeOut() ?? Promise.resolve()).then(() => this.journal.append(line));
      const [journaled, ...rest] = await Promise.allSettled([append, ...others]);
      const failed = [journaled, ...rest].find((r) => r.status === 'rejected');
      if (failed) {
        // All or nothing: a line whose history could not be written is taken back.
        if (journaled.status === 'fulfilled') await this.journal.undoLast();
        throw failed.reason;
      }
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
    return this.state.rowCount();
  }

  /** Takes `data` (as read and replayed) as the whole state. */
  private load(data: DbData): void {
    this.state.load(data);
    this.journal = new JournalFile(this.dataDir, data.journal_generation ?? 0);
    // The tables hold the records now; a checkpoint builds its own snapshot.
    this.db.data = emptyData();
  }

  private revertToDisk(): void {
    // Synchronous on purpose: no request may change the state being replaced.
    const data = readLastGoodSync(this.dataDir, this.file.path, this.onBackgroundError);
    this.changes.clear();
    this.checkpointNeeded = false;
    void this.journal.close();
    this.load(data);
    for (const fn of this.reloadListeners) fn();
  }
}
