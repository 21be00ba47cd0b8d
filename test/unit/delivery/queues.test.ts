// The engine's in-memory structures (what the outbox keeps is tested in outbox.test.ts).
import { describe, expect, it } from 'vitest';
import { DueHeap, FairQueue, Fifo } from '../../../src-main/backend/delivery/queues.js';
import { SlowEndpoints } from '../../../src-main/backend/delivery/slow-endpoints.js';

describe('Fifo and DueHeap', () => {
  it('Fifo keeps order across its internal compaction', () => {
    const q = new Fifo<number>();
    for (let i = 0; i < 5000; i++) q.push(i);
    const out: number[] = [];
    for (let i = 0; i < 3000; i++) out.push(q.shift()!);
    for (let i = 5000; i < 6000; i++) q.push(i);
    while (q.length) out.push(q.shift()!);
    expect(out).toEqual(Array.from({ length: 6000 }, (_, i) => i));
    expect(q.shift()).toBeUndefined();
  });

  it('DueHeap pops in due order', () => {
    const h = new DueHeap<string>();
    const times = [50, 10, 40, 10, 99, 0, 30, 20, 70, 60];
    times.forEach((t, i) => h.push(t, `j${i}`));
    const popped: number[] = [];
    while (h.size) popped.push(h.pop()!.at);
    expect(popped).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('FairQueue', () => {
  it('serves subscriptions round-robin within both limits', () => {
    const q = new FairQueue<string>(3, 2);
    for (let i = 0; i < 4; i++) q.push('a', `a${i}`);
    for (let i = 0; i < 4; i++) q.push('b', `b${i}`);
    const live = () => true;
    const taken = [q.take(live), q.take(live), q.take(live), q.take(live)].map((t) => t?.item);
    expect(taken).toEqual(['a0', 'b0', 'a1', undefined]); // global limit 3
    q.done('a');
    expect(q.take(live)?.item).toBe('b1');
    expect(q.take(live)).toBeUndefined(); // a has 1 + b has 2 in flight = 3
    q.done('b');
    expect(q.take(live)?.item).toBe('a2');
    expect(q.active).toBe(3);
  });

  it('lets a lane at its own limit step aside for the others', () => {
    const q = new FairQueue<string>(10, 1);
    for (let i = 0; i < 5; i++) q.push('slow', `s${i}`);
    q.push('fast', 'f0');
    q.push('fast', 'f1');
    const live = () => true;
    expect(q.take(live)?.item).toBe('s0');
    expect(q.take(live)?.item).toBe('f0');
    expect(q.take(live)).toBeUndefined();
    q.done('fast');
    expect(q.take(live)?.item).toBe('f1');
  });

  it('skips items that are no longer live without counting them', () => {
    const q = new FairQueue<string>(5, 5);
    q.push('a', 'dead');
    q.push('a', 'alive');
    expect(q.take((x) => x !== 'dead')?.item).toBe('alive');
    expect(q.active).toBe(1);
  });

  it('keeps a reserve and a fair share, so lanes that hang cannot hold the whole pool', () => {
    const q = new FairQueue<string>(64, 16);
    const live = () => true;
    const hanging = ['h1', 'h2', 'h3', 'h4'];
    for (const h of hanging) for (let i = 0; i < 20; i++) q.push(h, `${h}-${i}`);
    const held = new Map<string, number>();
    for (let t = q.take(live); t; t = q.take(live)) held.set(t.key, (held.get(t.key) ?? 0) + 1);
    expect(q.active).toBe(56); // an eighth of the pool stays free
    expect([...held.values()]).toEqual([14, 14, 14, 14]);
    // A newly busy lane starts at once, on the reserve.
    for (let i = 0; i < 200; i++) q.push('healthy', `ok-${i}`);
    expect(q.take(live)?.key).toBe('healthy');
    expect(q.take(live)?.key).toBe('healthy');
    expect(q.take(live)).toBeUndefined();
    // Its attempts end quickly; each frees a slot it takes again.
    q.done('healthy');
    expect(q.take(live)?.key).toBe('healthy');
    // Attempts of a hanging lane that end give it back at most its share of the
    // unreserved pool among the 5 busy lanes (ceil(56 / 5) = 12), not the 14 it had.
    q.done('h1');
    q.done('h1');
    q.done('h1');
    const regained: string[] = [];
    for (let t = q.take(live); t; t = q.take(live)) regained.push(t.key);
    expect(regained).toEqual(['h1']);
    expect(q.active).toBe(56);
  });

  it('holds a lane to the lower limit it is given', () => {
    let slow = false;
    const q = new FairQueue<string>(64, 16, (key) => (key === 's' && slow ? 2 : Infinity));
    for (let i = 0; i < 10; i++) q.push('s', `s${i}`);
    const live = () => true;
    slow = true;
    expect([q.take(live), q.take(live), q.take(live)].map((t) => t?.item)).toEqual(['s0', 's1', undefined]);
    slow = false;
    q.done('s');
    expect(q.take(live)?.item).toBe('s2');
    expect(q.take(live)?.item).toBe('s3');
  });
});

describe('SlowEndpoints', () => {
  it('calls an endpoint slow after two timeouts in a row, and not after any other ending', () => {
    const s = new SlowEndpoints();
    s.note('wh_1', true);
    expect(s.isSlow('wh_1')).toBe(false);
    s.note('wh_1', true);
    expect(s.isSlow('wh_1')).toBe(true);
    expect(s.slotsFor('wh_1')).toBe(2);
    expect(s.slotsFor('wh_2')).toBe(Infinity);
    s.note('wh_1', false);
    expect(s.isSlow('wh_1')).toBe(false);
  });
});
