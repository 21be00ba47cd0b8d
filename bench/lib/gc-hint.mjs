// A garbage-collection hint for a running Node process that exposes no GC route of its
// own: the process is started with `--inspect-port=127.0.0.1:0` (which starts nothing),
// SIGUSR1 then opens Node's inspector on a free loopback port (its address is printed on
// the process's stderr), and one DevTools protocol call, HeapProfiler.collectGarbage,
// runs a full GC. Used once, after the soak, when nothing else is measured afterwards.
import { WebSocket } from 'undici';
import { waitFor } from './http.mjs';

export const GC_HINT_NODE_ARGS = ['--inspect-port=127.0.0.1:0'];

/** Runs a full GC in `pid` (started with GC_HINT_NODE_ARGS); `stderr()` is its stderr so far. Resolves true if done. */
export async function collectGarbage(pid, stderr) {
  process.kill(pid, 'SIGUSR1');
  const url = await waitFor(
    'the inspector address on stderr',
    () =>
      stderr()
        .match(/ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/g)
        ?.pop(),
    {
      timeoutMs: 10_000,
    },
  );
  const ws = new WebSocket(url);
  try {
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve, { once: true });
      ws.addEventListener('error', () => reject(new Error(`inspector at ${url}: could not connect`)), { once: true });
    });
    const answer = new Promise((resolve) => ws.addEventListener('message', (m) => resolve(JSON.parse(m.data)), { once: true }));
    ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
    const res = await Promise.race([answer, new Promise((r) => setTimeout(() => r({ error: 'no answer in 30 s' }), 30_000))]);
    if (res.error) throw new Error(`HeapProfiler.collectGarbage: ${JSON.stringify(res.error)}`);
    return true;
  } finally {
    ws.close();
  }
}
