// Measures what a queued delivery costs the service, in one process (not part of the test
// suite): the heap it keeps while it waits, and the CPU of moving it through the queue.
// A real backend (createBackend: store, history log, outbox, engine, memory settings)
// delivers to bench/receiver.mjs (its own process). Events of ~730 bytes are enqueued to
// 50 subscriptions through the outbox, 50 events per commit (the bench's 50 connections).
//  1. kept: the receiver holds its answers; `events` x 50 deliveries are enqueued and
//     committed, the engine takes them up (64 in flight, the rest queued); heap used after
//     a full collection, against after they all ended (what stays, the history's index, is
//     said apart), per delivery.
//  2. drain: the receiver answers; CPU per delivery until all ended (every thread, and the
//     main thread alone: the rest is mostly V8's garbage-collection workers).
//  3. burst: enqueue while the engine sends (as the bench's PUTs do), CPU per delivery.
//     With --alloc, the last round's burst also samples what is allocated (V8's sampling
//     heap profiler, objects collected since included): bytes per delivery, by function
//     (sampling slows that burst: its CPU figure is not comparable).
// Run from the repository's root (--expose-gc is needed):
//   npx rolldown bench/queue-bench.ts --platform node --format esm --external @ngrok/ngrok --dir out/queue-bench
//   node --expose-gc out/queue-bench/queue-bench.js [events=400] [rounds=3] [--alloc]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend } from '../src-main/backend/index.js';
import { loadConfig } from '../src-main/backend/config.js';
import { systemClock } from '../src-main/backend/clock.js';
import { once } from 'node:events';
import { Session } from 'node:inspector/promises';
import { benchSubscriptions, documentData } from './bench-fixtures.js';
import { cpu, startReceiver } from './proc-probes.js';

const SUBS = 50;
const events = Number(process.argv[2] ?? 400);
const rounds = Number(process.argv[3] ?? 3);
const sampleAllocations = process.argv.includes('--alloc');
const exposed = (globalThis as { gc?: () => void }).gc;
if (!exposed) throw new Error('run with node --expose-gc');
const gc: () => void = exposed;

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/** Starts sampling allocations (1 KiB apart on average), garbage included; the returned function stops and summarises per delivery. */
async function sampleAllocationsPer(n: number): Promise<() => Promise<string>> {
  const session = new Session();
  session.connect();
  const options = { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
  await session.post('HeapProfiler.startSampling', options as never);
  return async () => {
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } };
    session.disconnect();
    const self = new Map<string, number>();
    let total = 0;
    const walk = (node: SamplingNode): void => {
      const f = node.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
      for (const c of node.children) walk(c);
    };
    walk(profile.head);
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 20);
    return [
      `allocated in the burst: ${(total / n).toFixed(0)} B/delivery; by function (self):`,
      ...top.map(([k, v]) => `  ${(v / n).toFixed(0).padStart(6)} B  ${k}`),
    ].join('\n');
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const post = (url: string) => fetch(url, { method: 'POST' }).then((r) => r.json());

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'queue-bench-'));
  const receiver = await startReceiver();
  const rurl = receiver.url;
  const env = { COUNTERSIGN_ALLOW_PRIVATE_TARGETS: '1' };
  const backend = createBackend(loadConfig(['--port', '0', '--receiver-port', '0', '--data-dir', dir], env), {
    clock: systemClock,
    tunnelAutostart: false,
  });
  await backend.start();
  const { store, outbox, engine } = backend;
  const subs = await benchSubscriptions(store, SUBS, rurl);
  const enqueueAll = async () => {
    const commits: Promise<void>[] = [];
    for (let e = 0; e < events; e += 50) {
      for (let k = 0; k < Math.min(50, events - e); k++)
        outbox.enqueue(
          { company_id: 'co_bench', type: 'document.updated', document_id: 'doc_01JDXK3M4N5P6Q7R8S9T0VWXYZ', data: documentData(e + k) },
          subs,
        );
      commits.push(store.commit());
      await commits[commits.length - 1];
    }
    await Promise.all(commits);
  };
  const drained = async () => {
    while (outbox.size > 0 || engine.inFlight() > 0) await sleep(5);
    await store.settle();
  };
  const n = events * SUBS;
  const per = (s: number) => ((s * 1e6) / n).toFixed(1);
  for (let r = 0; r < rounds; r++) {
    // 1. kept
    await post(`${rurl}/__hold`);
    await sleep(50);
    gc();
    const h0 = process.memoryUsage().heapUsed;
    await enqueueAll();
    while (engine.inFlight() < Math.min(64, n)) await sleep(5);
    await sleep(50);
    gc();
    const h1 = process.memoryUsage().heapUsed;
    // 2. drain
    const c0 = cpu();
    await post(`${rurl}/__release`);
    await drained();
    const c1 = cpu();
    await sleep(50);
    gc();
    const h2 = process.memoryUsage().heapUsed;
    // 3. burst
    await sleep(100);
    const stopSampling = sampleAllocations && r === rounds - 1 ? await sampleAllocationsPer(n) : null;
    const c2 = cpu();
    await enqueueAll();
    await drained();
    const c3 = cpu();
    const allocations = stopSampling ? await stopSampling() : null;
    console.log(
      `round ${r + 1}: kept while queued ${((h1 - h2) / n).toFixed(0)} B/delivery (after: ${((h2 - h0) / n).toFixed(0)}); drain ${per(c1.all - c0.all)} µs CPU/delivery (main ${per(c1.main - c0.main)}); ` +
        `burst ${per(c3.all - c2.all)} (main ${per(c3.main - c2.main)})`,
    );
    if (allocations) console.log(allocations);
  }
  await backend.stop();
  receiver.child.kill();
  await once(receiver.child, 'exit');
  await rm(dir, { recursive: true, force: true });
}

await main();
