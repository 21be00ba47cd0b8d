// Interned strings for the history index: each distinct value (a subscription id, a URL,
// an error message, an event id) is held once and referred to by a small integer, with
// a reference count so a value leaves memory when the last record using it does. The
// integers are reused once free, so a holder must release what it added.
export class Interner {
  private readonly index = new Map<string, number>();
  private readonly values: (string | undefined)[] = [];
  private readonly refs: number[] = [];
  private readonly free: number[] = [];
  /** While held (hold()), numbers whose last reference goes are kept, values and all, and freed at the last unhold(). */
  private holding = 0;
  private readonly later: number[] = [];

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

  /** `n` more references (default one) to a value already held. */
  retain(i: number, n = 1): void {
    this.refs[i] += n;
  }

  release(i: number): void {
    if (--this.refs[i] > 0) return;
    if (this.holding > 0) this.later.push(i);
    else this.drop(i);
  }

  /**
   * Until the matching unhold(), no number is freed or reused: a number read before stays
   * its value (a closing segment's sidecar renumbers its rows' strings after the close).
   */
  hold(): void {
    this.holding++;
  }

  unhold(): void {
    if (--this.holding > 0) return;
    for (const i of this.later) if (this.refs[i] === 0 && this.values[i] !== undefined) this.drop(i);
    this.later.length = 0;
  }

  private drop(i: number): void {
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
