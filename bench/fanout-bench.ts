// Measures the event/log side of figure 3 in one process (not part of the test suite):
// what the service does per delivery besides sending it. An event of ~730 bytes
// (document.updated, as the bench's PUT makes) is enqueued to 50 subscriptions through
// the real Outbox, Store and history log, committed, then every delivery's attempt is
// logged as the engine logs it (Outbox.logAttempt, the same record shapes) and its row
// finished, `lag` batches behind the PUTs (so ~10,000 deliveries are queued, as in the
// bench's burst, and every garbage collection walks them). The service's memory settings
// apply (memory-settings.ts). CPU time per delivery of each step, over rounds (the commit both
// for the whole process and for the main thread alone: while it waits, other threads work). Run:
//   npx rolldown bench/fanout-bench.ts --platform node --format esm --file /tmp/fanout-bench.mjs
//   node /tmp/fanout-bench.mjs [events=600] [rounds=5] [lag=4]
import { rm } from 'node:fs/promises';
import type { OutboxWork } from '../src-main/backend/delivery/outbox.js';
import { signingKey } from '../src-main/backend/delivery/signing.js';
import { applyMemorySettings } from '../src-main/backend/memory-settings.js';
import { benchSubscriptions, openBenchOutbox, cpuUs, documentData, endedAttempt } from './bench-fixtures.js';
import { cpu } from './proc-probes.js';

const SUBS = 50;
const events = Number(process.argv[2] ?? 600);
const rounds = Number(process.argv[3] ?? 5);
const lag = Number(process.argv[4] ?? 4);

/**
 * One commit, timed two ways: all threads (what the process spends while it waits: the
 * fsyncs in libuv's pool, V8's GC workers, the history's background scan) and the main thread.
 */
async function timedCommit(store: { commit(): Promise<void> }, t: { commit: number; commitMain: number }): Promise<void> {
  const c = cpuUs();
  const m = cpu().main;
  await store.commit();
  t.commit += cpuUs() - c;
  t.commitMain += (cpu().main - m) * 1e6;
}

async function main(): Promise<void> {
  const { root, store, history, outbox, takeAdded } = await openBenchOutbox('fanout-bench-', 200_000);
  const subs = await benchSubscriptions(store, SUBS, 'http://127.0.0.1:40000');
  applyMemorySettings();
  const key = signingKey(subs[0].secret_key);
  const rows: string[] = [];
  const queued: OutboxWork[][] = [];
  for (let r = 0; r < rounds; r++) {
    const t = { enqueue: 0, commit: 0, commitMain: 0, log: 0, prep: 0 };
    const w0 = performance.now();
    const r0 = cpuUs();
    // 50 PUTs at a time, as the bench's 50 connections: enqueue, then one shared commit.
    for (let e = 0; e < events; e += 50) {
      let c = cpuUs();
      const n = Math.min(50, events - e);
      for (let k = 0; k < n; k++)
        outbox.enqueue(
          { company_id: 'co_bench', type: 'document.updated', document_id: 'doc_01JDXK3M4N5P6Q7R8S9T0VWXYZ', data: documentData(e + k) },
          subs,
        );
      t.enqueue += cpuUs() - c;
      await timedCommit(store, t);
      queued.push(takeAdded());
      const last = e + 50 >= events;
      // What the engine hands over (signed headers, the answer) is made first, outside the timed part.
      c = cpuUs();
      const ended = queued
        .splice(0, last ? queued.length : Math.max(0, queued.length - lag))
        .flat()
        .map((w) => endedAttempt(w, store, key, subs[0].url));
      t.prep += cpuUs() - c;
      c = cpuUs();
      for (const a of ended) {
        outbox.logAttempt(a);
        outbox.finish(a.row);
      }
      t.log += cpuUs() - c;
      await timedCommit(store, t);
    }
    const all = cpuUs() - r0 - t.prep;
    const wall = performance.now() - w0;
    const n = events * SUBS;
    const per = (us: number) => (us / n).toFixed(2);
    rows.push(
      `round ${r + 1}: enqueue ${per(t.enqueue)} · commit ${per(t.commit)} (main thread ${per(t.commitMain)}) · logAttempt+finish ${per(t.log)} µs CPU/delivery; ` +
        `process CPU ${per(all)} (background work included); wall ${((wall * 1000) / n).toFixed(2)} µs`,
    );
    console.log(rows[rows.length - 1]);
  }
  await history.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
}

await main();
