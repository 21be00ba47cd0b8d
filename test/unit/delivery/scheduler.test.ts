// The scheduler on a manual clock: due times in virtual time (no real wait), the
// concurrency limits, redeliveries of known jobs, reset and pause.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src-main/backend/clock.js';
import { Scheduler, type Job } from '../../../src-main/backend/delivery/scheduler.js';
import type { OutboxWork } from '../../../src-main/backend/delivery/outbox.js';
import { decideAfterAttempt } from '../../../src-main/backend/delivery/retry-policy.js';
import { DEFAULT_RETRY_SCHEDULE } from '../../../src-main/backend/config.js';

const T0 = Date.UTC(2030, 0, 1);

function work(id: string, dueAt: number, subscription = 'wh_1', attempts = 0): OutboxWork {
  const row = {
    id,
    event_id: 'evt_1',
    subscription_id: subscription,
    company_id: 'co_1',
    event_type: 'document.sent' as const,
    document_id: null,
    created_at: '',
  };
  return { row, attempts, dueAt };
}

function setup(maxTotal = 10, maxPerSubscription = 10) {
  const clock = new ManualClock(T0);
  let due = 0;
  const sched = new Scheduler({ maxTotal, maxPerSubscription, clock, onDue: () => due++ });
  const takeAll = () => {
    const out: Job[] = [];
    for (let j = sched.take(); j; j = sched.take()) out.push(j);
    return out;
  };
  return { clock, sched, takeAll, dueCalls: () => due };
}

describe('scheduler', () => {
  it('makes due work ready at once, and later work ready when the clock reaches it', () => {
    const { clock, sched, takeAll, dueCalls } = setup();
    sched.admit(work('m_now', T0));
    sched.admit(work('m_late', T0 + 5_000));
    sched.admit(work('m_later', T0 + 300_000));
    expect(takeAll().map((j) => j.row.id)).toEqual(['m_now']);
    clock.advance(4_999);
    expect(dueCalls()).toBe(0);
    expect(sched.take()).toBeUndefined();
    clock.advance(1);
    expect(dueCalls()).toBe(1);
    expect(takeAll().map((j) => j.row.id)).toEqual(['m_late']);
    clock.advance(295_000);
    expect(takeAll().map((j) => j.row.id)).toEqual(['m_later']);
    expect(clock.pending).toBe(0); // nothing left waiting: no timer either
  });

  it('plays the whole default retry schedule (27.6 hours) in virtual time', () => {
    const { clock, sched, takeAll } = setup();
    const attemptsAt: number[] = [];
    sched.admit(work('m_1', T0));
    for (let attempt = 1; ; attempt++) {
      let [job] = takeAll();
      while (!job) {
        expect(clock.next()).toBe(true);
        [job] = takeAll();
      }
      attemptsAt.push(clock.now() - T0);
      sched.finished(job);
      const decision = decideAfterAttempt(attempt, { kind: 'response', status: 503 }, DEFAULT_RETRY_SCHEDULE);
      if (decision.kind !== 'retry') break;
      job.attempts = attempt;
      job.dueAt = clock.now() + decision.delayMs;
      sched.place(job);
    }
    expect(attemptsAt).toEqual([0, 5, 305, 2105, 9305, 27305, 63305, 99305].map((s) => s * 1000));
  });

  it('keeps to the limits: in flight overall and per subscription', () => {
    const { sched, takeAll } = setup(3, 2);
    for (let i = 0; i < 4; i++) sched.admit(work(`a${i}`, T0, 'wh_a'));
    for (let i = 0; i < 4; i++) sched.admit(work(`b${i}`, T0, 'wh_b'));
    const first = takeAll();
    expect(first.map((j) => j.row.subscription_id).sort()).toEqual(['wh_a', 'wh_a', 'wh_b']);
    expect(sched.active).toBe(3);
    const a = first.find((j) => j.row.subscription_id === 'wh_a')!;
    sched.drop(a);
    sched.finished(a);
    // A slot came free: the lanes take turns, and it is wh_b's.
    expect(takeAll().map((j) => j.row.subscription_id)).toEqual(['wh_b']);
  });

  it('brings a known job forward on a redelivery, and marks one in flight to go again', () => {
    const { clock, sched, takeAll } = setup();
    sched.admit(work('m_wait', T0 + 60_000));
    sched.admit(work('m_fly', T0));
    const [flying] = takeAll();
    expect(flying.row.id).toBe('m_fly');
    expect(sched.redeliver(work('m_wait', clock.now()))?.row.id).toBe('m_wait'); // redelivered: due now
    expect(takeAll().map((j) => j.row.id)).toEqual(['m_wait']);
    expect(sched.redeliver(work('m_fly', clock.now()))).toBe(flying);
    expect(flying.again).toBe(true);
    expect(sched.get('m_fly')).toBe(flying);
    expect(sched.redeliver(work('m_unknown', clock.now()))).toBeUndefined();
    expect(sched.active).toBe(2);
  });

  it('finds a held job by id and by subscription in every state, once each, and never one it let go of', () => {
    const { clock, sched, takeAll } = setup(10, 1);
    const waiting = sched.admit(work('m_wait', T0 + 60_000, 'wh_a'));
    const flying = sched.admit(work('m_fly', T0, 'wh_a'));
    const ready = sched.admit(work('m_ready', T0, 'wh_a')); // wh_a may hold one in flight: this one stays ready
    const other = sched.admit(work('m_other', T0, 'wh_b'));
    expect(takeAll()).toEqual([flying, other]);
    sched.redeliver(work('m_wait', T0 + 30_000)); // moved: its old heap entry goes stale
    expect(sched.forSubscription('wh_a').sort((x, y) => x.row.id.localeCompare(y.row.id))).toEqual([flying, ready, waiting]);
    expect(sched.forSubscription('wh_b')).toEqual([other]);
    for (const job of [waiting, flying, ready, other]) expect(sched.get(job.row.id)).toBe(job);
    sched.drop(ready);
    sched.drop(other);
    sched.finished(other);
    expect(sched.get('m_ready')).toBeUndefined();
    expect(sched.get('m_other')).toBeUndefined();
    expect(sched.forSubscription('wh_a').sort((x, y) => x.row.id.localeCompare(y.row.id))).toEqual([flying, waiting]);
    clock.advance(30_000);
    expect(sched.forSubscription('wh_a').sort((x, y) => x.row.id.localeCompare(y.row.id))).toEqual([flying, waiting]);
  });

  it('never starts a job it let go of: dropped or forgotten while queued, or replaced by a fresh admission of the same id', () => {
    const { sched, takeAll } = setup();
    const dropped = sched.admit(work('m_drop', T0, 'wh_a'));
    const forgotten = sched.admit(work('m_reset', T0, 'wh_b'));
    sched.drop(dropped);
    expect(sched.owns(dropped)).toBe(false);
    sched.drop(dropped); // twice: no harm
    sched.reset();
    expect(sched.owns(forgotten)).toBe(false);
    // The same id again: a new job; the old one's queue entry stays stale.
    const again = sched.admit(work('m_reset', T0, 'wh_b'));
    expect(again).not.toBe(forgotten);
    expect(sched.owns(again)).toBe(true);
    expect(takeAll()).toEqual([again]);
    expect(sched.active).toBe(1);
  });

  it('drops cancelled work, forgets everything on reset (detaching flights), and stops its timer on pause', () => {
    const { clock, sched, takeAll } = setup();
    sched.admit(work('m_a', T0, 'wh_a'));
    sched.admit(work('m_b', T0 + 1_000, 'wh_b'));
    const [flying] = takeAll();
    expect(sched.forSubscription('wh_a')).toEqual([flying]);
    sched.reset();
    expect(flying.detached).toBe(true);
    expect(sched.get('m_a')).toBeUndefined();
    expect(sched.owns(flying)).toBe(false);
    sched.admit(work('m_c', T0 + 2_000));
    sched.pause();
    expect(clock.pending).toBe(0);
    clock.advance(10_000);
    expect(takeAll()).toEqual([]);
  });
});
