// Interned strings for the history index: each distinct value (a subscription id, a URL,
// an error message, an event id) is held once and referred to by a small integer, with
// a reference count so a value leaves memory when the last record using it does. The
// integers are reused once free, so a holder must release what it added.
import { HeldRefs } from './held-refs.js';

export class Interner extends HeldRefs {
  private readonly index = new Map<string, number>();
  private readonly values: (string | undefined)[] = [];
  protected readonly refs: number[] = [];
  private readonly free: number[] = [];

  /** The value's number, counting one more reference to it. */
  add(value: string): number {
    const i = this.index.get(value);
    if (i !== undefined) {
      this.refs[i]++;
      return i;
    }
    const n = this.free.pop() ?? this.values.length;
    this.values[n] = value;
    this.refs[n] = 1;
    this.index.set(value, n);
    return n;
  }

  protected given(i: number): boolean {
    return this.values[i] !== undefined;
  }

  protected drop(i: number): void {
    this.index.delete(this.values[i] as string);
    this.values[i] = undefined;
    this.refs[i] = 0;
    this.free.push(i);
  }

  get(i: number): string {
    return this.values[i] as string;
  }

  /** The number of a value held now, without adding a reference. */
  find(value: string): number | undefined {
    return this.index.get(value);
  }

  /** Replaces reference `old` (or none, -1) by one to `value`; cheap when unchanged. */
  swap(old: number, value: string): number {
    if (old >= 0 && this.values[old] === value) return old;
    const n = this.add(value);
    if (old >= 0) this.release(old);
    return n;
  }

  refCount(i: number): number {
    return this.refs[i] ?? 0;
  }

  /** Every value by number (null where a number is free): what a sidecar stores. */
  dump(): (string | null)[] {
    return this.values.map((v) => v ?? null);
  }

  get size(): number {
    return this.index.size;
  }
}
