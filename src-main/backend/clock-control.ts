// What the test helpers and the console do to the test clock (test-clock.ts): freeze,
// resume, advance, and the view of it. The clock's state is kept in the store (the
// `test_clock` extension), so virtual time survives a restart: what was stamped in
// virtual time (documents, attempts, the retry schedule) never finds itself in the
// future of a clock that jumped back. A fresh data directory starts on wall time.
import { isoNow, systemClock } from './clock.js';
import type { TestClock, TestClockState } from './test-clock.js';
import type { Store } from './store/store.js';
import type { ChangeBus } from './bus.js';
import type { TestClockView } from '@shared/api-types.js';

const EXTENSION = 'test_clock';
/** How often advance() looks whether the work a step started has ended (real time). */
const SETTLE_POLL_MS = 2;

export interface ClockControlDeps {
  clock: TestClock;
  store: Store;
  bus: ChangeBus;
  /** Attempts in flight (the delivery engine); a step of advance() waits for them to end. */
  inFlight: () => number;
}

export class ClockControl {
  constructor(private readonly deps: ClockControlDeps) {}

  /** Takes the saved state once the store is open. */
  load(): void {
    const saved = this.deps.store.extensions.get<TestClockState>(EXTENSION);
    if (saved) this.deps.clock.load({ offset_ms: saved.offset_ms, frozen_at: saved.frozen_at });
  }

  view(): TestClockView {
    const { clock } = this.deps;
    return {
      object: 'test_clock',
      now: isoNow(clock),
      frozen: clock.frozen,
      offset_seconds: Math.round(clock.offsetMs() / 1000),
    };
  }

  async freeze(): Promise<TestClockView> {
    this.deps.clock.freeze();
    return this.saved();
  }

  async resume(): Promise<TestClockView> {
    this.deps.clock.resume();
    return this.saved();
  }

  /** Plays `seconds` of virtual time; resolves once every attempt that fell due in it has been made and recorded. */
  async advance(seconds: number): Promise<TestClockView> {
    await this.deps.clock.advance(seconds * 1000, () => this.settle());
    return this.saved();
  }

  private async saved(): Promise<TestClockView> {
    const { store, bus, clock } = this.deps;
    store.extensions.set(EXTENSION, clock.state());
    await store.commit();
    bus.emit({ kind: 'clock' });
    return this.view();
  }

  /** Resolves when no attempt is in flight (checked after a real tick, so work just started is seen). */
  private async settle(): Promise<void> {
    do await new Promise<void>((resolve) => systemClock.setTimeout(resolve, SETTLE_POLL_MS));
    while (this.deps.inFlight() > 0);
  }
}
