// The test clock (test-clock.ts) on its own: the wall clock until frozen, timers that
// fire in real time while it runs and wait while it is frozen, advance() playing each
// due timer at its own instant and waiting for the work it started, and a saved state.
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../src-main/backend/test-clock.js';
import { waitUntil } from '../helpers/wait.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('TestClock', () => {
  it('reads the wall clock and fires timers in real time while it runs', async () => {
    const clock = new TestClock();
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(5);
    expect(clock.frozen).toBe(false);
    const fired: number[] = [];
    const set = Date.now();
    clock.setTimeout(() => fired.push(Date.now() - set), 30);
    const cancelled = clock.setTimeout(() => fired.push(-1), 10);
    clock.clearTimeout(cancelled);
    await waitUntil('the timer to fire', async () => fired.length === 1);
    expect(fired[0]).toBeGreaterThanOrEqual(29);
    await sleep(30);
    expect(fired).toHaveLength(1);
  });

  it('stands still while frozen: timers wait, and resume counts on from the frozen instant', async () => {
    const clock = new TestClock();
    clock.freeze();
    const at = clock.now();
    let fired = false;
    clock.setTimeout(() => (fired = true), 20);
    await sleep(60);
    expect(clock.now()).toBe(at);
    expect(fired).toBe(false);
    clock.resume();
    expect(clock.now() - at).toBeLessThan(5);
    expect(clock.offsetMs()).toBeLessThan(-50); // behind the world by the time it stood still
    await waitUntil('the timer to fire after resume', async () => fired);
  });

  it('advance plays each due timer at its own instant, waiting for the work it started', async () => {
    const clock = new TestClock();
    clock.freeze();
    const t0 = clock.now();
    const seen: [string, number][] = [];
    let working = 0;
    // A retry chain: each "attempt" takes real time, then sets the next one 1 h later.
    const attempt = (n: number) => {
      working++;
      const started = clock.now();
      setTimeout(() => {
        working--;
        seen.push([`attempt ${n}`, started - t0]);
        if (n < 3) clock.setTimeout(() => attempt(n + 1), 3_600_000);
      }, 15);
    };
    clock.setTimeout(() => attempt(1), 5_000);
    clock.setTimeout(() => seen.push(['late', clock.now() - t0]), 10 * 3_600_000);
    await clock.advance(3 * 3_600_000, async () => {
      while (working > 0) await sleep(2);
    });
    expect(seen).toEqual([
      ['attempt 1', 5_000],
      ['attempt 2', 3_605_000],
      ['attempt 3', 7_205_000],
    ]);
    expect(clock.now()).toBe(t0 + 3 * 3_600_000);
    expect(clock.frozen).toBe(true);
    await clock.advance(7 * 3_600_000);
    expect(seen.at(-1)).toEqual(['late', 10 * 3_600_000]);
  });

  it('advances while running too, and never moves backwards', async () => {
    const clock = new TestClock();
    await clock.advance(60_000);
    expect(clock.offsetMs()).toBeGreaterThanOrEqual(59_990);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    const a = clock.now();
    await sleep(20);
    expect(clock.now()).toBeGreaterThan(a);
  });

  it('runs two advances one after the other', async () => {
    const clock = new TestClock();
    clock.freeze();
    const t0 = clock.now();
    const ran: number[] = [];
    clock.setTimeout(() => ran.push(clock.now() - t0), 1_500);
    await Promise.all([clock.advance(1_000, () => sleep(5)), clock.advance(1_000)]);
    expect(ran).toEqual([1_500]);
    expect(clock.now()).toBe(t0 + 2_000);
  });

  it('restores a saved state', () => {
    const a = new TestClock();
    a.freeze();
    const b = new TestClock();
    b.load(a.state());
    expect(b.frozen).toBe(true);
    expect(b.now()).toBe(a.now());
    const c = new TestClock();
    c.load({ offset_ms: 3_600_000, frozen_at: null });
    expect(c.offsetMs()).toBeGreaterThan(3_599_000);
  });
});
