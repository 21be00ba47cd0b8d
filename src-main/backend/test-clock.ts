// The test clock (Stripe's term): the service's clock in every running backend. Left
// alone it reads the wall clock; it can be frozen, resumed and advanced, so that a retry
// schedule of hours plays in seconds and a tester sees exactly what an endpoint gets at
// each step. Built on systemClock (the only real time it reads or waits on).
//
// Virtual time = wall time + offset while running, a fixed instant while frozen. It
// only ever moves forward: resume() keeps the frozen instant and counts from there,
// advance() adds to it. Timers are kept here in virtual time; one real timer wakes
// the clock when the earliest falls due while running.
//
// advance() plays the step in order: it moves to each timer's due time, runs the timers
// due then with now() pinned to that instant, and waits for the work they started (an
// attempt on the network, a commit) to settle before it moves on, so that each retry
// is made, signed and recorded at its own virtual time, not at the end of the step.
import { systemClock, type Clock, type Timer } from './clock.js';

interface VirtualTimer extends Timer {
  at: number;
  seq: number;
  fn: () => void;
  /** Interval period; 0 for a one-shot timer. */
  every: number;
  referenced: boolean;
}

/** What the test clock keeps across a restart (the store's `test_clock` extension). */
export interface TestClockState {
  /** Virtual minus wall time while running, in ms. */
  offset_ms: number;
  /** The frozen instant (epoch ms), or null while running. */
  frozen_at: number | null;
}

const MAX_REAL_TIMER_MS = 2 ** 31 - 1;

export class TestClock implements Clock {
  private offset = 0;
  private frozenAt: number | null = null;
  /** While advance() plays a timer's instant, now() reads it. */
  private pinned: number | null = null;
  private seq = 0;
  private timers: VirtualTimer[] = [];
  private wake: Timer | null = null;
  private advancing: Promise<void> | null = null;

  now(): number {
    return this.pinned ?? this.frozenAt ?? systemClock.now() + this.offset;
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  /** True while an advance() is playing. */
  get busy(): boolean {
    return this.advancing !== null;
  }

  /** Virtual minus wall time, in ms (what the clock is ahead of the world). */
  offsetMs(): number {
    return this.now() - systemClock.now();
  }

  state(): TestClockState {
    return { offset_ms: this.offset, frozen_at: this.frozenAt };
  }

  /** Takes a saved state (at start). Never moves time backwards from what was saved. */
  load(saved: TestClockState | undefined): void {
    if (!saved) return;
    this.offset = Number.isFinite(saved.offset_ms) ? saved.offset_ms : 0;
    this.frozenAt = typeof saved.frozen_at === 'number' && Number.isFinite(saved.frozen_at) ? saved.frozen_at : null;
    this.rearm();
  }

  setTimeout(fn: () => void, ms: number): Timer {
    return this.add(fn, ms, 0);
  }

  setInterval(fn: () => void, ms: number): Timer {
    return this.add(fn, ms, Math.max(1, ms));
  }

  clearTimeout(timer: Timer | null | undefined): void {
    const i = this.timers.indexOf(timer as VirtualTimer);
    if (i === -1) return;
    this.timers.splice(i, 1);
    if (i === 0) this.rearm();
  }

  clearInterval(timer: Timer | null | undefined): void {
    this.clearTimeout(timer);
  }

  freeze(): void {
    if (this.frozenAt !== null) return;
    this.frozenAt = this.now();
    this.rearm();
  }

  resume(): void {
    if (this.frozenAt === null) return;
    this.offset = this.frozenAt - systemClock.now();
    this.frozenAt = null;
    this.rearm();
  }

  /**
   * Moves virtual time forward by `ms`, playing every timer due on the way in order;
   * `settle` resolves when the work a timer started has ended. One advance at a time:
   * a second call waits for the first to end, then plays its own step.
   */
  async advance(ms: number, settle: () => Promise<void> = () => Promise.resolve()): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`a test clock only moves forward (advance by ${ms})`);
    while (this.advancing) await this.advancing;
    const step = this.play(ms, settle);
    this.advancing = step.finally(() => (this.advancing = null));
    await this.advancing;
  }

  private async play(ms: number, settle: () => Promise<void>): Promise<void> {
    const target = this.now() + ms;
    this.pinned = this.now();
    this.disarm();
    try {
      for (let top = this.timers[0]; top && top.at <= target; top = this.timers[0]) {
        this.pinned = Math.max(this.pinned, top.at);
        this.runDue(this.pinned);
        await settle();
      }
    } finally {
      this.pinned = null;
      if (this.frozenAt !== null) this.frozenAt = Math.max(this.frozenAt, target);
      else this.offset = Math.max(target, systemClock.now() + this.offset) - systemClock.now();
      this.rearm();
    }
  }

  /**
   * Runs the timers due at or before `t` that were set before this call; ones they set
   * run on the next pass (the next wake, or advance()'s next round after settling), as
   * a real timer of 0 ms runs after the current task.
   */
  private runDue(t: number): void {
    const before = this.seq;
    for (let top = this.timers[0]; top && top.at <= t && top.seq < before; top = this.timers[0]) {
      this.timers.shift();
      if (top.every > 0) this.insert(top, top.at + top.every);
      try {
        top.fn();
      } catch (err) {
        console.error('[clock] a timer failed:', err);
      }
    }
  }

  private add(fn: () => void, ms: number, every: number): VirtualTimer {
    const timer: VirtualTimer = {
      at: 0,
      seq: 0,
      fn,
      every,
      referenced: true,
      unref: () => {
        timer.referenced = false;
        if (this.timers[0] === timer) this.rearm();
        return timer;
      },
    };
    this.insert(timer, this.now() + Math.max(0, Number.isFinite(ms) ? ms : 0));
    return timer;
  }

  private insert(timer: VirtualTimer, at: number): void {
    timer.at = at;
    timer.seq = this.seq++;
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].at > at) i--;
    this.timers.splice(i, 0, timer);
    if (i === 0) this.rearm();
  }

  private disarm(): void {
    systemClock.clearTimeout(this.wake);
    this.wake = null;
  }

  /** One real timer for the earliest virtual one, while the clock runs on its own. */
  private rearm(): void {
    this.disarm();
    const top = this.timers[0];
    if (!top || this.frozenAt !== null || this.pinned !== null) return;
    const delay = Math.min(Math.max(0, top.at - this.now()), MAX_REAL_TIMER_MS);
    this.wake = systemClock.setTimeout(() => {
      this.wake = null;
      if (this.pinned !== null) return;
      this.runDue(this.now());
      this.rearm();
    }, delay);
    // The process may exit while only unreferenced timers wait (as with Node's own).
    if (!this.timers.some((t) => t.referenced)) this.wake.unref();
  }
}
