// Retention of the history log against a real temp folder: past `cap` deliveries the
// oldest segments go, finished deliveries with them, while pending deliveries (with their
// attempts, events and event bodies) are carried forward, also across a reopen.
import { describe, expect, it } from 'vitest';
import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, historyLogs } from './history-fixtures.js';

const setup = historyLogs({ cap: 10, segmentDeliveries: 5 });

const allIds = (log: HistoryLog, company = 'co_a') => log.listDeliveries({ company_id: company }, { limit: 100 }).data.map((d) => d.id);

/** One event and one delivery with one attempt; pending ones failed their first attempt. */
function addDelivery(log: HistoryLog, i: number, pending: boolean) {
  log.recordEvent(event({ id: `evt_${i}`, document_id: `doc_${i % 2}` }), `{"n":${i}}`);
  log.recordDelivery(delivery({ id: `msg_${i}`, event_id: `evt_${i}`, document_id: `doc_${i % 2}` }));
  log.recordAttempt(
    attempt({
      delivery_id: `msg_${i}`,
      succeeded: !pending,
      response: { status: pending ? 503 : 200, headers: {}, body: `r${i}`, truncated: false },
    }),
  );
  log.recordDelivery(
    delivery({ id: `msg_${i}`, event_id: `evt_${i}`, document_id: `doc_${i % 2}`, status: pending ? 'pending' : 'succeeded', attempts: 1 }),
  );
}

describe('history log: retention', () => {
  it('drops the oldest finished deliveries and keeps pending ones whole', async () => {
    const { dir, make } = await setup();
    const log = await make();
    for (let i = 0; i < 30; i++) addDelivery(log, i, i < 2);
    await log.close(); // waits for retention under way

    const check = async (l: HistoryLog) => {
      const ids = allIds(l);
      // At most cap; and no more dropped than needed: one segment (5 deliveries) past the cap at most.
      expect(ids.length).toBeLessThanOrEqual(10);
      expect(ids.length).toBeGreaterThan(10 - 5);
      expect(ids).toContain('msg_0');
      expect(ids).toContain('msg_1');
      // Finished ones kept are exactly a run of the newest, newest first, pending ones in their original place.
      const finished = ids.filter((id) => id !== 'msg_0' && id !== 'msg_1');
      const newest = Number(finished[0].slice(4));
      expect(newest).toBe(29);
      expect(finished).toEqual(finished.map((_, k) => `msg_${newest - k}`));
      expect(ids.slice(-2)).toEqual(['msg_1', 'msg_0']);
      expect(l.getDelivery('msg_2')).toBeUndefined();
      expect(l.getEvent('evt_2')).toBeUndefined(); // its only delivery is gone
      for (const id of ['msg_0', 'msg_1']) {
        const attempts = await l.getAttempts(id);
        expect(attempts.map((a) => a.response?.body)).toEqual([`r${id.slice(4)}`]);
      }
      expect(await l.getEventBody('evt_0')).toBe('{"n":0}');
      expect(l.eventsForDocument('co_a', 'doc_0').map((e) => e.id)[0]).toBe('evt_0');
      expect((await l.getAttempts('msg_29'))[0].response?.body).toBe('r29');
      return ids;
    };
    const before = await check(log);
    // Segments only: each closed one may also have its index sidecar (seg-N.idx) by now, written in the background.
    const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
    expect(files).not.toContain('seg-000001.jsonl');
    expect(files.length).toBeLessThanOrEqual(4);

    const again = await make();
    expect(await check(again)).toEqual(before);

    // Once finished, a carried delivery goes with the next segment that is dropped.
    again.recordAttempt(attempt({ delivery_id: 'msg_0', attempt: 2 }));
    again.recordDelivery(delivery({ id: 'msg_0', status: 'succeeded', attempts: 2 }));
    for (let i = 30; i < 60; i++) addDelivery(again, i, false);
    await again.close();
    expect(again.getDelivery('msg_0')).toBeUndefined();
    expect(again.getDelivery('msg_1')?.status).toBe('pending');
    const third = await make();
    expect(third.getDelivery('msg_0')).toBeUndefined();
    expect((await third.getAttempts('msg_1')).length).toBe(1);
    expect(allIds(third)).toEqual(allIds(again));
  });

  it('is consistent when a dropped segment comes back (its deletion was lost in a crash)', async () => {
    const { dir, make } = await setup();
    const log = await make();
    for (let i = 0; i < 5; i++) addDelivery(log, i, i < 2);
    await log.flush();
    await copyFile(join(dir, 'seg-000001.jsonl'), join(dir, 'backup'));
    for (let i = 5; i < 30; i++) addDelivery(log, i, false);
    await log.close();
    expect(await readdir(dir)).not.toContain('seg-000001.jsonl');
    await copyFile(join(dir, 'backup'), join(dir, 'seg-000001.jsonl'));

    const again = await make();
    // The carried copies win over the originals: one attempt each, not two.
    expect((await again.getAttempts('msg_0')).length).toBe(1);
    expect((await again.getAttempts('msg_1')).length).toBe(1);
    expect(allIds(again)).toEqual(expect.arrayContaining(['msg_2', 'msg_3', 'msg_4'])); // resurrected, within the cap
    expect(allIds(again).length).toBe(10);
    addDelivery(again, 30, false); // over the cap: the resurrected segment goes again
    await again.close();
    expect(allIds(again).length).toBeLessThanOrEqual(10);
    expect(allIds(again)).toEqual(expect.arrayContaining(['msg_0', 'msg_1', 'msg_30']));
    expect(again.getDelivery('msg_2')).toBeUndefined();
    expect(await readdir(dir)).not.toContain('seg-000001.jsonl');
    const third = await make();
    expect((await third.getAttempts('msg_0')).length).toBe(1);
  });

  it('carries attempts recorded after a carry, and carries twice', async () => {
    const { make } = await setup();
    const log = await make();
    addDelivery(log, 0, true);
    for (let i = 1; i < 15; i++) addDelivery(log, i, false);
    await log.close();
    const again = await make();
    again.recordAttempt(attempt({ delivery_id: 'msg_0', attempt: 2, succeeded: false }));
    for (let i = 15; i < 40; i++) addDelivery(again, i, false);
    again.recordAttempt(attempt({ delivery_id: 'msg_0', attempt: 3, succeeded: false }));
    await again.close();
    const third = await make();
    expect((await third.getAttempts('msg_0')).map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(third.getDelivery('msg_0')?.status).toBe('pending');
  });

  it('keeps an old event that a newer kept delivery refers to', async () => {
    const { make } = await setup();
    const log = await make();
    log.recordEvent(event({ id: 'evt_old' }), 'old-body');
    for (let i = 0; i < 25; i++) addDelivery(log, i, false);
    // Like a redelivery of an old event: a new delivery refers to it.
    log.recordDelivery(delivery({ id: 'msg_late', event_id: 'evt_old', status: 'succeeded' }));
    for (let i = 25; i < 28; i++) addDelivery(log, i, false);
    await log.close();
    expect(log.getDelivery('msg_0')).toBeUndefined();
    expect(await log.getEventBody('evt_old')).toBe('old-body');
    const again = await make();
    expect(again.getDelivery('msg_late')).toBeDefined();
    expect(await again.getEventBody('evt_old')).toBe('old-body');
  });

  it('terminates and keeps everything when pending deliveries alone exceed the cap', async () => {
    const { make } = await setup();
    const log = await make();
    for (let i = 0; i < 25; i++) addDelivery(log, i, true);
    await log.close();
    expect(allIds(log).length).toBe(25);
    const again = await make();
    expect(allIds(again).length).toBe(25);
    expect((await again.getAttempts('msg_3')).length).toBe(1);
  });

  it('stays consistent with what a reopen sees while appends race with retention', async () => {
    const { make } = await setup({ cap: 20, segmentDeliveries: 4 });
    const log = await make();
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const status = new Map<string, 'pending' | 'succeeded'>();
    const attemptsOf = new Map<string, number>();
    let next = 0;
    for (let step = 0; step < 400; step++) {
      const r = rand();
      const pending = [...status].filter(([, st]) => st === 'pending').map(([id]) => id);
      if (r < 0.5 || pending.length === 0) {
        const i = next++;
        const isPending = rand() < 0.2;
        addDelivery(log, i, isPending);
        status.set(`msg_${i}`, isPending ? 'pending' : 'succeeded');
        attemptsOf.set(`msg_${i}`, 1);
      } else {
        const id = pending[Math.floor(rand() * pending.length)];
        const n = attemptsOf.get(id)! + 1;
        attemptsOf.set(id, n);
        log.recordAttempt(attempt({ delivery_id: id, attempt: n, succeeded: false }));
        const done = rand() < 0.3;
        if (done) status.set(id, 'succeeded');
        log.recordDelivery(
          delivery({
            id,
            event_id: `evt_${id.slice(4)}`,
            document_id: `doc_${Number(id.slice(4)) % 2}`,
            status: done ? 'succeeded' : 'pending',
            attempts: n,
          }),
        );
      }
      if (rand() < 0.3) await new Promise((res) => setImmediate(res));
      if (rand() < 0.05) await log.flush();
    }
    await log.close();

    const snapshot = async (l: HistoryLog) => {
      const ids = allIds(l);
      return Promise.all(
        ids.map(async (id) => ({ id, status: l.getDelivery(id)!.status, attempts: (await l.getAttempts(id)).map((a) => a.attempt) })),
      );
    };
    const mine = await snapshot(log);
    for (const [id, st] of status) if (st === 'pending') expect(mine.map((m) => m.id)).toContain(id);
    for (const m of mine) {
      expect(m.status).toBe(status.get(m.id));
      expect(m.attempts).toEqual(Array.from({ length: attemptsOf.get(m.id)! }, (_, k) => k + 1));
      expect(await log.getEventBody(`evt_${m.id.slice(4)}`)).toBe(`{"n":${m.id.slice(4)}}`);
    }
    const again = await make();
    expect(await snapshot(again)).toEqual(mine);
  });
});
