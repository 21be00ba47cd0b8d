// The backend's one clock: the system clock, and the manual clock that tests (and the
// running backend, for a "test clock") move by hand without waiting.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoNow, isoTime, ManualClock, systemClock } from '../../src-main/backend/clock.js';

describe('ManualClock', () => {
  it('stands still until advanced, then runs due timers in order, each at its own due time', () => {
    const clock = new ManualClock(1_000);
    const ran: [string, number][] = [];
    clock.setTimeout(() => ran.push(['c', clock.now()]), 300);
    clock.setTimeout(() => ran.push(['a', clock.now()]), 100);
    clock.setTimeout(() => ran.push(['b', clock.now()]), 100); // same due time: creation order
    expect(clock.now()).toBe(1_000);
    clock.advance(99);
    expect(ran).toEqual([]);
    expect(clock.now()).toBe(1_099);
    clock.advance(1_000);
    expect(ran).toEqual([
      ['a', 1_100],
      ['b', 1_100],
      ['c', 1_300],
    ]);
    expect(clock.now()).toBe(2_099);
    expect(clock.pending).toBe(0);
  });

  it('runs timers set by a timer within the same step, and leaves later ones waiting', () => {
    const clock = new ManualClock(0);
    const ran: number[] = [];
    clock.setTimeout(() => {
      ran.push(clock.now());
      clock.setTimeout(() => ran.push(clock.now()), 50); // due at 150: inside the step
      clock.setTimeout(() => ran.push(clock.now()), 500); // due at 600: after it
    }, 100);
    clock.advance(200);
    expect(ran).toEqual([100, 150]);
    expect(clock.pending).toBe(1);
    expect(clock.nextDue()).toBe(600);
  });

  it('cancels timers, repeats intervals, and jumps to the next timer with next()', () => {
    const clock = new ManualClock(0);
    const ran: string[] = [];
    const t = clock.setTimeout(() => ran.push('cancelled'), 10);
    clock.clearTimeout(t);
    clock.clearTimeout(null); // like the real one, a no-op
    const every = clock.setInterval(() => ran.push(`tick ${clock.now()}`), 1_000);
    clock.advance(3_500);
    expect(ran).toEqual(['tick 1000', 'tick 2000', 'tick 3000']);
    expect(clock.next()).toBe(true);
    expect(clock.now()).toBe(4_000);
    clock.clearInterval(every);
    expect(clock.next()).toBe(false);
    expect(ran).toHaveLength(4);
  });

  it('plays a day of timers in no real time, and refuses to go backwards or re-enter', () => {
    const clock = new ManualClock(0);
    let fired = 0;
    for (let i = 1; i <= 1_000; i++) clock.setTimeout(() => fired++, i * 86_400);
    const started = performance.now();
    clock.advance(86_400_000);
    expect(fired).toBe(1_000);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    clock.setTimeout(() => clock.advance(1), 0);
    expect(() => clock.advance(0)).toThrow(/inside one of its timers/);
  });

  it('gives the API its ISO timestamps', () => {
    expect(isoNow(new ManualClock(Date.UTC(2030, 0, 2, 3, 4, 5, 6)))).toBe('2030-01-02T03:04:05.006Z');
  });
});

describe('systemClock', () => {
  it('reads the system time and runs real timers', async () => {
    const before = Date.now();
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    expect(systemClock.now()).toBeLessThan(before + 1_000);
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      const cancelled = systemClock.setTimeout(() => order.push('cancelled'), 5);
      systemClock.clearTimeout(cancelled);
      systemClock.setTimeout(() => {
        order.push('ran');
        resolve();
      }, 10);
    });
    expect(order).toEqual(['ran']);
  });
});

describe('isoTime', () => {
  const reference = (ms: number) => new Date(ms).toISOString();

  it('is toISOString for every time, in any order (same second, next second, back again, far years)', () => {
    const ms = fc.oneof(
      fc.integer({ min: 0, max: 8.64e15 }),
      fc.integer({ min: 1_795_684_190_000, max: 1_795_684_193_000 }), // many in the same few seconds
      fc.constantFrom(0, 999, 1000, 1001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15),
    );
    fc.assert(
      fc.property(fc.array(ms, { minLength: 1, maxLength: 50 }), (list) => {
        for (const t of list) expect(isoTime(t)).toBe(reference(t));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps seconds that share a slot apart (8 s and 16 s apart, taking turns)', () => {
    const t = 1_795_684_190_123;
    for (const step of [0, 8000, 16_000, 8000, 1000, 0, 16_000]) expect(isoTime(t + step)).toBe(reference(t + step));
  });

  it('takes the general path for fractions and times before 1970, and throws for an invalid time as toISOString does', () => {
    for (const t of [1.5, 1_795_684_190_123.7, -1, -1000, -62_198_755_200_000]) expect(isoTime(t)).toBe(reference(t));
    for (const t of [NaN, Infinity, 8.64e15 + 1]) expect(() => isoTime(t)).toThrow(RangeError);
  });
});
