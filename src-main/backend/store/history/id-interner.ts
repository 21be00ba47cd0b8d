// Interned event ids for the history index: the same numbers and reference counts as
// interner.ts, but each id held as bytes in an id table (id-table.ts: one buffer and a
// hash table of slots) instead of a JavaScript string, a Map entry and two array
// entries (about 110 bytes an event; about 45 here). There are as many event ids as
// events (one per delivery when each event has one subscription), so they are the one
// interned value that grows with the history; the other strings are few.
import { grown, nextCapacity } from './columns.js';
import { HeldRefs } from './held-refs.js';
import { IdTable } from './id-table.js';

export class IdInterner extends HeldRefs {
  private readonly ids = new IdTable();
  protected refs = new Int32Array(0);
  /** Numbers given up (reused first, last freed first). */
  private free = new Int32Array(0);
  private freeCount = 0;
  /** One past the highest number ever given. */
  private end = 0;

  /** The value's number, counting one more reference to it. */
  add(value: string): number {
    const known = this.ids.get(value);
    if (known !== undefined) {
      this.refs[known]++;
      return known;
    }
    const n = this.freeCount > 0 ? this.free[--this.freeCount] : this.end++;
    if (n >= this.refs.length) this.refs = grown(this.refs, nextCapacity(n));
    this.ids.set(value, n);
    this.refs[n] = 1;
    return n;
  }

  protected given(i: number): boolean {
    return this.ids.has(i);
  }

  protected drop(i: number): void {
    this.ids.delete(i);
    this.refs[i] = 0;
    if (this.freeCount === this.free.length) this.free = grown(this.free, nextCapacity(this.freeCount));
    this.free[this.freeCount++] = i;
  }

  get(i: number): string {
    return this.ids.idOf(i) as string;
  }

  /** Whether number `i` is `value`, compared in place (no string made). */
  holds(i: number, value: string): boolean {
    return this.ids.holds(i, value);
  }

  /** The number of a value held now, without adding a reference. */
  find(value: string): number | undefined {
    return this.ids.get(value);
  }

  /** Replaces reference `old` (or none, -1) by one to `value`; cheap when unchanged (no string is made). */
  swap(old: number, value: string): number {
    if (old >= 0 && this.holds(old, value)) return old;
    const n = this.add(value);
    if (old >= 0) this.release(old);
    return n;
  }

  refCount(i: number): number {
    return i < this.refs.length ? this.refs[i] : 0;
  }

  get size(): number {
    return this.ids.size;
  }
}
