// The store's typed tables: one per collection, each a map by key in insertion order
// (which is the order the API lists in). Every change goes through insert, update or
// remove, which change memory and name the record for the next journal line in one
// call, so no change can be forgotten by the journal. Rows come out as read-only views
// (the stored objects themselves, so reading costs no copy); what goes in is copied, so
// a caller cannot keep changing a record behind the journal's back (insertOwned takes a
// record its maker gives up).
import type { ChangeSet } from './journal.js';
import type { Collection } from './journal-line.js';

/** A read-only view of a stored value, nested objects and lists included. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** A change to one stored record: the fields to set, or a function that edits the record in place. */
export type RowChange<T> = Partial<T> | ((draft: T) => void);

export interface Table<T extends object> {
  readonly size: number;
  get(key: string): DeepReadonly<T> | undefined;
  has(key: string): boolean;
  /** Rows oldest first (insertion order); no copy is made. */
  values(): IterableIterator<DeepReadonly<T>>;
  /** A new list of the rows, oldest first. */
  all(): DeepReadonly<T>[];
  find(pred: (row: DeepReadonly<T>) => boolean): DeepReadonly<T> | undefined;
  filter(pred: (row: DeepReadonly<T>) => boolean): DeepReadonly<T>[];
  /** Adds a copy of `row` (its key must be new) and returns the stored view. */
  insert(row: T): DeepReadonly<T>;
  /**
   * Adds `row` itself, not a copy (its key must be new): for a record built only to be
   * stored, whose maker keeps no other reference to it (the outbox's pending rows, made
   * by the thousand in a fan-out).
   */
  insertOwned(row: T): DeepReadonly<T>;
  /** Changes a stored row in place (its key may not change); undefined when there is none. */
  update(key: string, change: RowChange<T>): DeepReadonly<T> | undefined;
  /** False when there was no such row. */
  remove(key: string): boolean;
  /** A new memo of values worked out from rows, each forgotten when its row changes or leaves; at most `max` kept. */
  memo<V>(max: number): RowMemo<DeepReadonly<T>, V>;
}

/**
 * Values worked out from stored rows (a view's serialised bytes), each kept until its
 * row changes: the table forgets a row's value on every update, remove and load, so a
 * value read back always describes the row as it is now. Bounded: once `max` values
 * have been set since the memo last started afresh, it starts afresh (what is read
 * often is soon kept again), so its memory never grows with the table.
 */
export class RowMemo<R extends object, V> {
  private values = new WeakMap<R, V>();
  private sets = 0;

  constructor(private readonly max: number) {}

  get(row: R): V | undefined {
    return this.values.get(row);
  }

  set(row: R, value: V): void {
    if (this.sets >= this.max) this.forgetAll();
    this.sets++;
    this.values.set(row, value);
  }

  /** Only the table calls these. */
  forget(row: R): void {
    this.values.delete(row);
  }

  forgetAll(): void {
    this.sets = 0;
    this.values = new WeakMap();
  }
}

/** The table implementation; only the store builds, loads and snapshots these. */
export class MemTable<T extends object> implements Table<T> {
  protected readonly rows = new Map<string, T>();
  private readonly memos: RowMemo<object, unknown>[] = [];

  constructor(
    private readonly collection: Collection,
    private readonly keyField: keyof T & string,
    private readonly changes: ChangeSet,
    private readonly copy: (row: T) => T,
  ) {}

  private keyOf(row: T): string {
    return row[this.keyField] as string;
  }

  get size(): number {
    return this.rows.size;
  }

  get(key: string): DeepReadonly<T> | undefined {
    return this.rows.get(key) as DeepReadonly<T> | undefined;
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  values(): IterableIterator<DeepReadonly<T>> {
    return this.rows.values() as IterableIterator<DeepReadonly<T>>;
  }

  all(): DeepReadonly<T>[] {
    return [...this.values()];
  }

  find(pred: (row: DeepReadonly<T>) => boolean): DeepReadonly<T> | undefined {
    for (const row of this.values()) if (pred(row)) return row;
    return undefined;
  }

  filter(pred: (row: DeepReadonly<T>) => boolean): DeepReadonly<T>[] {
    const out: DeepReadonly<T>[] = [];
    for (const row of this.values()) if (pred(row)) out.push(row);
    return out;
  }

  insert(row: T): DeepReadonly<T> {
    return this.insertOwned(this.copy(row));
  }

  insertOwned(stored: T): DeepReadonly<T> {
    const key = this.keyOf(stored);
    if (this.rows.has(key)) throw new Error(`${this.collection}: a record with key ${key} already exists`);
    this.rows.set(key, stored);
    this.added(stored);
    this.changes.set(this.collection, key, stored);
    return stored as DeepReadonly<T>;
  }

  update(key: string, change: RowChange<T>): DeepReadonly<T> | undefined {
    const row = this.rows.get(key);
    if (!row) return undefined;
    this.removed(row);
    try {
      if (typeof change === 'function') change(row);
      else Object.assign(row, change);
      if (this.keyOf(row) !== key) {
        (row as Record<string, unknown>)[this.keyField] = key;
        throw new Error(`${this.collection}: an update may not change the key ${key}`);
      }
    } finally {
      for (const m of this.memos) m.forget(row);
      this.added(row);
      // Named even when the change threw half-way: the journal gets what memory holds.
      this.changes.set(this.collection, key, row);
    }
    return row as DeepReadonly<T>;
  }

  remove(key: string): boolean {
    const row = this.rows.get(key);
    if (!row) return false;
    this.rows.delete(key);
    for (const m of this.memos) m.forget(row);
    this.removed(row);
    this.changes.set(this.collection, key, null);
    return true;
  }

  /** Replaces every row with `rows` as read from disk (not journaled: they are what is stored). */
  load(rows: T[]): void {
    this.rows.clear();
    for (const m of this.memos) m.forgetAll();
    this.cleared();
    for (const row of rows) {
      this.rows.set(this.keyOf(row), row);
      this.added(row);
    }
  }

  memo<V>(max: number): RowMemo<DeepReadonly<T>, V> {
    const m = new RowMemo<DeepReadonly<T>, V>(max);
    this.memos.push(m as RowMemo<object, unknown>);
    return m;
  }

  /** The rows as a list for a checkpoint (the stored objects, not copies). */
  snapshot(): T[] {
    return [...this.rows.values()];
  }

  /** Hooks for secondary indexes. */
  protected added(_row: T): void {}
  protected removed(_row: T): void {}
  protected cleared(): void {}
}

/** API keys, also found by the hash of the key (how a request is authenticated). */
export interface ApiKeyTable<T extends { hash: string }> extends Table<T> {
  byHash(hash: string): DeepReadonly<T> | undefined;
}

export class MemApiKeyTable<T extends { hash: string }> extends MemTable<T> implements ApiKeyTable<T> {
  private readonly hashes = new Map<string, T>();

  byHash(hash: string): DeepReadonly<T> | undefined {
    return this.hashes.get(hash) as DeepReadonly<T> | undefined;
  }

  protected override added(row: T): void {
    this.hashes.set(row.hash, row);
  }
  protected override removed(row: T): void {
    if (this.hashes.get(row.hash) === row) this.hashes.delete(row.hash);
  }
  protected override cleared(): void {
    this.hashes.clear();
  }
}

/** Free-form state of other parts (receiver inboxes, settings), one value per key. */
export interface Extensions {
  /** The value last set under `key`; its shape is whatever the owner stored (check it). */
  get<V>(key: string): DeepReadonly<V> | undefined;
  /** Stores a copy of `value` (JSON data) under `key`. */
  set(key: string, value: unknown): void;
  remove(key: string): void;
}

export class MemExtensions implements Extensions {
  private data: Record<string, unknown> = {};

  constructor(private readonly changes: ChangeSet) {}

  get<V>(key: string): DeepReadonly<V> | undefined {
    return this.data[key] as DeepReadonly<V> | undefined;
  }

  set(key: string, value: unknown): void {
    const stored = structuredClone(value);
    this.data[key] = stored;
    this.changes.set('extensions', key, stored);
  }

  remove(key: string): void {
    if (!(key in this.data)) return;
    delete this.data[key];
    this.changes.set('extensions', key, null);
  }

  load(data: Record<string, unknown>): void {
    this.data = data;
  }

  snapshot(): Record<string, unknown> {
    return this.data;
  }
}
