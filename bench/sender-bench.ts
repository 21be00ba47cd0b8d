// What one HTTP attempt costs the sender alone (delivery/http-sender.ts; not part of the
// test suite): HttpSender POSTs a ~730-byte signed body with the engine's five headers to
// bench/receiver.mjs (its own process), 64 in flight (the engine's default concurrency),
// nothing stored. Per round: CPU per request of this process (every thread, and the main
// thread alone), allocation rate, and the process's RSS at the end.
// Run from the repository's root:
//   npx rolldown bench/sender-bench.ts --platform node --format esm --dir out/sender-bench
//   node out/sender-bench/sender-bench.js [requests=50000] [rounds=5] [start]
// `start`: through HttpSender.start (a listener, as the engine sends) instead of send's promise.
// To compare another build of HttpSender, copy this file and bench/proc-probes.ts into that tree and build it there.
import { HttpSender, type SendResult } from '../src-main/backend/delivery/http-sender.js';
import { cpu, startReceiver } from './proc-probes.js';
import { webhookHeaders, signingKey } from '../src-main/backend/delivery/signing.js';

const N = Number(process.argv[2] ?? 50_000);
const rounds = Number(process.argv[3] ?? 5);
const IN_FLIGHT = 64;
const viaStart = process.argv[4] === 'start';

const body = Buffer.from(
  JSON.stringify({
    type: 'document.updated',
    timestamp: '2026-11-26T10:00:00.000Z',
    data: { document: { public_id: 'doc_01JDXK3M4N5P6Q7R8S9T0VWXYZ', title: 'x'.repeat(600), status: 'SENT' } },
  }),
);
const key = signingKey(`whsec_${Buffer.alloc(24, 7).toString('base64')}`);

async function round(sender: HttpSender, url: string): Promise<{ all: number; main: number; ok: number }> {
  let started = 0;
  let ok = 0;
  const c0 = cpu();
  await new Promise<void>((resolve) => {
    let running = 0;
    const next = (): void => {
      while (running < IN_FLIGHT && started < N) {
        const i = started++;
        running++;
        const headers = webhookHeaders({ secret: key, msgId: `msg_${i}`, timestamp: Math.floor(Date.now() / 1000), body });
        const ended = (r: SendResult): void => {
          if (r.response?.status === 200) ok++;
          running--;
          if (started < N) next();
          else if (running === 0) resolve();
        };
        if (viaStart) sender.start(url, headers, body, false, ended, null);
        else void sender.send(url, headers, body).then(ended);
      }
    };
    next();
  });
  const c1 = cpu();
  return { all: ((c1.all - c0.all) * 1e6) / N, main: ((c1.main - c0.main) * 1e6) / N, ok };
}

const receiver = await startReceiver();
const sender = new HttpSender({ timeoutMs: 30_000, connections: IN_FLIGHT, policy: { allowPrivate: true } });
const url = `${receiver.url}/cs/0`;
await round(sender, url); // warm-up
for (let r = 0; r < rounds; r++) {
  const t = await round(sender, url);
  const rss = process.memoryUsage.rss() / 2 ** 20;
  process.stdout.write(
    `round ${r + 1}: ${t.all.toFixed(1)} µs/request all threads, ${t.main.toFixed(1)} main; ok ${t.ok}/${N}; rss ${rss.toFixed(1)} MiB\n`,
  );
}
await sender.close();
receiver.child.kill();
