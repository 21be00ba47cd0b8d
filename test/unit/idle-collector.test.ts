// The idle collector's second rule (backend/idle-collector.ts): a backlog of deliveries
// worked off collects at once, even in a process that is never quiet. A worker thread
// spinning in this process keeps it busy (process.cpuUsage counts every thread), so the
// quiet rule cannot fire here, and each collection counted is the backlog rule's. Right
// before each collection the collector lets go what is made again on demand (`release`).
import { afterEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import {
  BACKLOG_DONE,
  BACKLOG_TICK_MS,
  BURST_BACKLOG,
  startIdleCollector,
  type IdleCollector,
} from '../../src-main/backend/idle-collector.js';
import { waitUntil } from '../helpers/wait.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the idle collector after a backlog of deliveries', () => {
  let spinner: Worker | undefined;
  let collector: IdleCollector | undefined;
  afterEach(async () => {
    collector?.stop();
    await spinner?.terminate();
  });

  it('collects once a burst is worked off, not while it is still waiting, nor after a small one', async () => {
    spinner = new Worker('for (;;) {}', { eval: true });
    let waiting = 0;
    let released = 0;
    collector = startIdleCollector({ backlog: () => waiting, release: () => released++ });

    // A small backlog, come and gone: no burst.
    waiting = BURST_BACKLOG - 1;
    await sleep(4 * BACKLOG_TICK_MS);
    waiting = 0;
    await sleep(4 * BACKLOG_TICK_MS);
    expect(collector.collections).toBe(0);
    expect(released).toBe(0);

    // A burst, half worked off: still waiting.
    waiting = 5 * BURST_BACKLOG;
    await sleep(4 * BACKLOG_TICK_MS);
    waiting = BACKLOG_DONE + 1;
    await sleep(4 * BACKLOG_TICK_MS);
    expect(collector.collections).toBe(0);

    // Worked off: one collection, right away (the quiet rule would need seconds of quiet this process never has).
    waiting = BACKLOG_DONE;
    const c = collector;
    await waitUntil('the collection after the burst', async () => c.collections === 1, 20 * BACKLOG_TICK_MS);
    await sleep(4 * BACKLOG_TICK_MS);
    expect(collector.collections).toBe(1);
    expect(released).toBe(1); // the caches made again on demand were let go right before it
  });

  it('collects after another burst only if the heap grew, or if what is let go before a collection has something due', async () => {
    spinner = new Worker('for (;;) {}', { eval: true });
    let waiting = 0;
    let due = false;
    collector = startIdleCollector({ backlog: () => waiting, due: () => due });
    const c = collector;
    const burst = async (): Promise<void> => {
      waiting = 5 * BURST_BACKLOG;
      await sleep(4 * BACKLOG_TICK_MS);
      waiting = 0;
      await sleep(4 * BACKLOG_TICK_MS);
    };
    await burst();
    await waitUntil('the first collection', async () => c.collections === 1, 20 * BACKLOG_TICK_MS);
    await burst(); // nothing grew, nothing due
    expect(collector.collections).toBe(1);
    due = true;
    await burst();
    await waitUntil('the collection for what is due', async () => c.collections === 2, 20 * BACKLOG_TICK_MS);
  });
});
