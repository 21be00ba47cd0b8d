// Measures logging an ended attempt in one process (not part of the test suite): what
// Outbox.logAttempt costs a delivery, from the engine's ended attempt to its line in the
// history writer's buffer and the index updated (figure 3's "logging the attempt"). Events
// of ~730 bytes go to 50 subscriptions through the real Outbox, Store and history log; the
// attempts are made as the engine makes them (signed headers, the bench receiver's 200
// answer), outside the timed part; then each is logged, in batches as the engine ends them.
// Prints CPU µs per attempt over rounds and, with `alloc`, the bytes allocated per attempt
// (heap used before and after a round with a young generation too big to be collected in it).
// Run:
//   npx rolldown bench/attempt-log-bench.ts --platform node --format esm --file /tmp/attempt-log-bench.mjs
//   node /tmp/attempt-log-bench.mjs [events=600] [rounds=5]
//   node --max-semi-space-size=256 --min-semi-space-size=256 /tmp/attempt-log-bench.mjs 200 3 alloc
import { rm } from 'node:fs/promises';
import { signingKey } from '../src-main/backend/delivery/signing.js';
import { applyMemorySettings } from '../src-main/backend/memory-settings.js';
import { Session } from 'node:inspector/promises';
import { benchSubscriptions, openBenchOutbox, cpuUs, documentData, endedAttempt } from './bench-fixtures.js';

const SUBS = 50;
const events = Number(process.argv[2] ?? 600);
const rounds = Number(process.argv[3] ?? 5);
const alloc = process.argv[4] === 'alloc' || process.argv[4] === 'sites';
const sites = process.argv[4] === 'sites';

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

/** Bytes allocated per attempt by function (self), from a sampling heap profile that kept collected objects too. */
async function printSites(session: Session, n: number): Promise<void> {
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampleNode } };
  const by = new Map<string, number>();
  const walk = (node: SampleNode, stack: string) => {
    const f = node.callFrame;
    const name = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    by.set(`${name} <- ${stack}`, (by.get(`${name} <- ${stack}`) ?? 0) + node.selfSize);
    for (const c of node.children) walk(c, name);
  };
  walk(profile.head, '');
  const total = [...by.values()].reduce((a, b) => a + b, 0);
  console.log(`sampled ${(total / n).toFixed(0)} B/attempt`);
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 40))
    if (v > 0) console.log(`${(v / n).toFixed(0).padStart(6)} B  ${k}`);
  session.disconnect();
}

async function main(): Promise<void> {
  const { root, store, history, outbox, takeAdded } = await openBenchOutbox('attempt-log-bench-', 1_000_000);
  const subs = await benchSubscriptions(store, SUBS, 'http://127.0.0.1:40000');
  if (!alloc) applyMemorySettings();
  const key = signingKey(subs[0].secret_key);
  const urls = new Map(subs.map((s) => [s.public_id, s.url]));
  for (let r = 0; r < rounds; r++) {
    for (let e = 0; e < events; e += 50) {
      for (let k = 0; k < Math.min(50, events - e); k++)
        outbox.enqueue(
          { company_id: 'co_bench', type: 'document.updated', document_id: 'doc_01JDXK3M4N5P6Q7R8S9T0VWXYZ', data: documentData(e + k) },
          subs,
        );
      await store.commit();
    }
    await new Promise((res) => setImmediate(res)); // the outbox hands work over once its commit is durable
    const ended = takeAdded().map((w) => endedAttempt(w, store, key, urls.get(w.row.subscription_id)!));
    await history.flush();
    const session = sites && r === rounds - 1 ? new Session() : null;
    if (session) {
      session.connect();
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      } as never);
    }
    const heap0 = process.memoryUsage().heapUsed;
    const c0 = cpuUs();
    // In turns of 64, as the engine ends them (its concurrency), with the writer's timer free to run between.
    for (let i = 0; i < ended.length; i += 64) {
      for (let k = i; k < Math.min(i + 64, ended.length); k++) outbox.logAttempt(ended[k]);
      if (!alloc && (i & 1023) === 0) await new Promise((res) => setImmediate(res));
    }
    const cpu = cpuUs() - c0;
    const bytes = process.memoryUsage().heapUsed - heap0;
    const n = ended.length;
    if (session) await printSites(session, n);
    console.log(
      `round ${r + 1}: logAttempt ${(cpu / n).toFixed(2)} µs CPU/attempt` +
        (alloc ? `, ${(bytes / n).toFixed(0)} B allocated/attempt (heap)` : ''),
    );
    if (process.env.KEEP)
      console.log(JSON.stringify(await history.getAttempts(ended[0].row.id)).slice(0, 300), history.getDelivery(ended[0].row.id));
    for (const a of ended) outbox.finish(a.row);
    await store.commit();
    await history.flush();
  }
  await history.close();
  await store.close();
  if (process.env.KEEP) console.log(root);
  else await rm(root, { recursive: true, force: true });
}

await main();
