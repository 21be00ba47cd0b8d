// When the end of deliveries reaches the disk. A finished delivery's end is in the
// history log at once (written within a few ms), but an fsync per delivery would cost
// too much at thousands a second; so a background write (the history log's flush, and
// the store's removal of events no delivery needs any more) follows after a pause that
// grows with the schedule's length: 50 ms for a few deliveries, up to 1 s for tens of
// thousands. A crash in between at worst repeats those attempts, which at-least-once
// allows and receivers deduplicate on webhook-id (and the log's lines usually made it
// to the file; see outbox.ts).
// The timer runs on the service's clock: under a manual clock, the write waits for the
// clock to move (or for the next commit, or stop()).
import type { Clock, Timer } from '../clock.js';

const WRITE_MIN_MS = 50;
const WRITE_MAX_MS = 1000;

export interface FlushPolicyOptions {
  clock: Clock;
  /** Rows in the stored schedule now. */
  backlog: () => number;
  /** Starts the background write. */
  write: () => void;
}

export class FlushPolicy {
  private timer: Timer | null = null;
  private stopped = false;

  constructor(private readonly opts: FlushPolicyOptions) {}

  /** The pause before the write, for a schedule of `backlog` rows. */
  static delayFor(backlog: number): number {
    return Math.min(WRITE_MAX_MS, WRITE_MIN_MS + backlog / 20);
  }

  /** Something changed that must reach the disk: a write follows within the pause (one per pause). */
  changed(): void {
    if (this.stopped || this.timer) return;
    this.timer = this.opts.clock.setTimeout(this.fire, FlushPolicy.delayFor(this.opts.backlog()));
    this.timer.unref();
  }

  get armed(): boolean {
    return this.timer !== null;
  }

  /** No more writes (the engine makes its own final one). */
  stop(): void {
    this.stopped = true;
    this.opts.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly fire = (): void => {
    this.timer = null;
    if (!this.stopped) this.opts.write();
  };
}
