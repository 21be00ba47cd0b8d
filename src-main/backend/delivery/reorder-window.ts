// The "reorder" fault: attempts to one subscription that start within a window (real
// time) are held, then sent one after another in the reverse of the order they came
// in, so the endpoint sees the newest first. Each held attempt gets a `done` to call
// once its request has been answered; the next one goes only then.
import { systemClock } from '../clock.js';

interface Held {
  go: (done: () => void) => void;
}

export class ReorderWindow {
  private readonly open = new Map<string, Held[]>();

  /** Resolves when it is this attempt's turn, with the callback that ends its turn. */
  hold(key: string, windowMs: number): Promise<() => void> {
    let held = this.open.get(key);
    if (!held) {
      const list: Held[] = [];
      held = list;
      this.open.set(key, list);
      systemClock.setTimeout(() => void this.release(key, list), windowMs).unref();
    }
    const list = held;
    return new Promise((resolve) => list.push({ go: resolve }));
  }

  private async release(key: string, list: Held[]): Promise<void> {
    if (this.open.get(key) === list) this.open.delete(key);
    for (const h of list.reverse()) await new Promise<void>((done) => h.go(done));
  }
}
