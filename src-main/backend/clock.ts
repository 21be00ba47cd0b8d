// The backend's one source of time. Every part that reads the time or waits takes a
// Clock: the system clock by default, or a ManualClock that is moved by hand, so a test
// (and later the console's "test clock") can freeze the service's time and make a 33-hour
// retry schedule play in an instant. Only this file touches Date.now(), new Date() and
// the timer globals; an ESLint rule enforces that for src-main/backend.
//
// Two kinds of time use it. The service's time (timestamps, the retry schedule, the
// scheduler, signatures, retention, the engine's flush timers) comes from the clock the
// backend was built with. Real-world waits that a frozen clock must not stop (network
// deadlines, response delays, heartbeats, write batching) use `systemClock` directly.

/** A pending timer; unref() lets the process exit while it waits (a no-op on a manual clock). */
export interface Timer {
  unref(): Timer;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
  clearTimeout(timer: Timer | null | undefined): void;
  setInterval(fn: () => void, ms: number): Timer;
  clearInterval(timer: Timer | null | undefined): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout | undefined),
};

/** The clock's time as an ISO 8601 string (the API's timestamps). */
export const isoNow = (clock: Clock): string => isoTime(clock.now());

/** The last valid Date (ECMAScript: 100,000,000 days after 1970). */
const MAX_TIME_MS = 8.64e15;
/** The "YYYY-MM-DDTHH:MM:SS." prefix of recent seconds, in slots by the second's low bits. */
const ISO_SLOTS = 8;
const isoSeconds = new Float64Array(ISO_SLOTS).fill(NaN);
const isoPrefixes: string[] = new Array<string>(ISO_SLOTS).fill('');

/**
 * `new Date(ms).toISOString()`, for the delivery engine's hot path (a few times per
 * attempt, where toISOString cost microseconds): times within a second met recently
 * share its "YYYY-MM-DDTHH:MM:SS." prefix, and only the milliseconds are written. Several
 * seconds are kept at once: an attempt writes the time it started and the history reads
 * back its delivery's creation time, seconds apart, and with one kept they took turns.
 */
export function isoTime(ms: number): string {
  // Whole, non-negative epoch ms only (anything else takes the general path, which also throws for an invalid time).
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIME_MS) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  const slot = second % ISO_SLOTS;
  if (isoSeconds[slot] !== second) {
    isoPrefixes[slot] = new Date(second * 1000).toISOString().slice(0, -4);
    isoSeconds[slot] = second;
  }
  const rest = ms - second * 1000;
  return `${isoPrefixes[slot]}${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}Z`;
}

interface ManualTimer extends Timer {
  at: number;
  seq: number;
  fn: () => void;
  /** Interval period; 0 for a one-shot timer. */
  every: number;
}

/**
 * A clock that stands still until advanced. advance() runs every timer that falls due
 * within the step, in order of due time (then of creation), with now() reading each
 * timer's own due time while it runs; timers set meanwhile run too if they fall due
 * within the step. Nothing happens in real time: no timer of the system is used.
 */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  /** Sorted by (at, seq); timers are few, so an insertion into an array is enough. */
  private timers: ManualTimer[] = [];
  private running = false;

  constructor(startMs: number = Date.now()) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    return this.add(fn, ms, 0);
  }

  setInterval(fn: () => void, ms: number): Timer {
    return this.add(fn, ms, Math.max(1, ms));
  }

  clearTimeout(timer: Timer | null | undefined): void {
    const i = this.timers.indexOf(timer as ManualTimer);
    if (i !== -1) this.timers.splice(i, 1);
  }

  clearInterval(timer: Timer | null | undefined): void {
    this.clearTimeout(timer);
  }

  /** Timers waiting to run. */
  get pending(): number {
    return this.timers.length;
  }

  /** Due time of the next timer, or undefined when none is set. */
  nextDue(): number | undefined {
    return this.timers[0]?.at;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`a clock only moves forward (advance by ${ms})`);
    this.runUntil(this.t + ms);
  }

  /** Moves time to the next timer's due time and runs the timers due then. False when none is set. */
  next(): boolean {
    const at = this.nextDue();
    if (at === undefined) return false;
    this.runUntil(Math.max(at, this.t));
    return true;
  }

  private runUntil(target: number): void {
    if (this.running) throw new Error('the clock cannot be advanced from inside one of its timers');
    this.running = true;
    try {
      for (let top = this.timers[0]; top && top.at <= target; top = this.timers[0]) {
        this.timers.shift();
        this.t = Math.max(this.t, top.at);
        if (top.every > 0) this.insert(top, top.at + top.every);
        top.fn();
      }
      this.t = target;
    } finally {
      this.running = false;
    }
  }

  private add(fn: () => void, ms: number, every: number): ManualTimer {
    const timer: ManualTimer = { at: 0, seq: 0, fn, every, unref: () => timer };
    this.insert(timer, this.t + Math.max(0, Number.isFinite(ms) ? ms : 0));
    return timer;
  }

  private insert(timer: ManualTimer, at: number): void {
    timer.at = at;
    timer.seq = this.seq++;
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].at > at) i--;
    this.timers.splice(i, 0, timer);
  }
}
