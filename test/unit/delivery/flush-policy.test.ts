// When finished deliveries reach the disk, on a manual clock: one background write per
// pause, the pause growing with the schedule's length, and none after stop().
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src-main/backend/clock.js';
import { FlushPolicy } from '../../../src-main/backend/delivery/flush-policy.js';

function setup(backlog = 0) {
  const clock = new ManualClock(0);
  const state = { backlog, writes: 0 };
  const policy = new FlushPolicy({ clock, backlog: () => state.backlog, write: () => state.writes++ });
  return { clock, state, policy };
}

describe('flush policy', () => {
  it('waits 50 ms for a few rows, up to a second for tens of thousands', () => {
    expect(FlushPolicy.delayFor(0)).toBe(50);
    expect(FlushPolicy.delayFor(1_000)).toBe(100);
    expect(FlushPolicy.delayFor(19_000)).toBe(1_000);
    expect(FlushPolicy.delayFor(1_000_000)).toBe(1_000);
  });

  it('makes one write per pause, however many deliveries ended during it', () => {
    const { clock, state, policy } = setup(10);
    for (let i = 0; i < 100; i++) policy.changed();
    expect(policy.armed).toBe(true);
    clock.advance(50);
    expect(state.writes).toBe(0); // due at 50.5 ms (10 rows)
    clock.advance(1);
    expect(state.writes).toBe(1);
    expect(policy.armed).toBe(false);
    policy.changed();
    state.backlog = 100_000; // the pause is chosen when it starts
    clock.advance(51);
    expect(state.writes).toBe(2);
  });

  it('pauses longer for a long schedule', () => {
    const { clock, state, policy } = setup(10_000);
    policy.changed();
    clock.advance(549);
    expect(state.writes).toBe(0);
    clock.advance(1);
    expect(state.writes).toBe(1);
  });

  it('writes nothing once stopped, even for a pause already under way', () => {
    const { clock, state, policy } = setup();
    policy.changed();
    policy.stop();
    policy.changed();
    clock.advance(10_000);
    expect(state.writes).toBe(0);
    expect(clock.pending).toBe(0);
  });
});
