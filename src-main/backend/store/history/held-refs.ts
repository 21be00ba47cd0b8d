// Reference counts of the numbers an interner gives (interner.ts: strings; id-interner.ts:
// event ids as bytes), and the hold that a closing segment's sidecar needs: it reads
// numbers after the close (docs/storage.md), so until the matching unhold() no number whose
// last reference goes is freed or reused; those are freed at the last unhold(), if nothing
// took them again meanwhile.
export abstract class HeldRefs {
  /** References to each number given (0 for a free one). */
  protected abstract refs: number[] | Int32Array;
  private holding = 0;
  private readonly later: number[] = [];

  /** Frees number `i` (no reference left): its value goes, the number may be given again. */
  protected abstract drop(i: number): void;

  /** Whether number `i` still has a value (not freed yet). */
  protected abstract given(i: number): boolean;

  /** `n` more references (default one) to a value already held. */
  retain(i: number, n = 1): void {
    this.refs[i] += n;
  }

  release(i: number): void {
    if (--this.refs[i] > 0) return;
    if (this.holding > 0) this.later.push(i);
    else this.drop(i);
  }

  /** Until the matching unhold(), no number is freed or reused: a number read before stays its value. */
  hold(): void {
    this.holding++;
  }

  unhold(): void {
    if (--this.holding > 0) return;
    for (const i of this.later) if (this.refs[i] === 0 && this.given(i)) this.drop(i);
    this.later.length = 0;
  }
}
