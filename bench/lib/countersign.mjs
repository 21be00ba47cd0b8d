// The service under test, as a separate process: `node out/main/headless.js` on port 0
// with its own temporary data directory, driven only through its HTTP API (and the
// console API's status for the engine's in-flight count).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startNode } from './procs.mjs';
import { call, waitFor } from './http.mjs';

export async function startCountersign({ root, dataDir, nodeArgs = [], extraEnv = {}, timeoutMs = 60_000 }) {
  const key = `cs_bench_${randomBytes(24).toString('base64url')}`;
  const env = {};
  // A clean environment: no tunnel token (nothing may leave the machine), no stray settings.
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('COUNTERSIGN_') && !k.startsWith('NGROK')) env[k] = v;
  env.COUNTERSIGN_ADMIN_KEY = key;
  Object.assign(env, extraEnv);
  const spawnedAt = Date.now();
  const started = await startNode(join(root, 'out/main/headless.js'), ['--port', '0', '--receiver-port', '0', '--data-dir', dataDir], {
    env,
    nodeArgs,
    name: 'countersign headless',
    timeoutMs,
  });
  const { api_url: api, console_url } = started.ready;
  const token = decodeURIComponent(/#token=([^&]+)/.exec(console_url)[1]);
  const headers = { 'x-api-key': key };
  const cs = {
    child: started.child,
    pid: started.child.pid,
    spawnedAt,
    api,
    key,
    dataDir,
    stderr: started.stderr,
    createDocument: (n) =>
      call(`${api}/v2/test_helpers/documents`, {
        method: 'POST',
        headers,
        body: {
          title: `Bench contract ${n}`,
          recipients: [
            { name: 'Ada Signer', email: `ada${n}@example.com` },
            { name: 'Bob Witness', email: `bob${n}@example.com` },
          ],
          metadata: { source: 'bench', n, tags: ['a', 'b'] },
        },
      }),
    createSubscription: (url) => call(`${api}/v2/webhooks`, { method: 'POST', headers, body: { url, type: 'all' } }),
    deleteSubscription: (id) => call(`${api}/v2/webhooks/${id}`, { method: 'DELETE', headers }),
    token,
    /** A console API call (the console token), e.g. consoleGet('/console/api/session'). */
    consoleGet: (path) => call(`${api}${path}`, { headers: { 'x-console-token': token } }),
    inFlight: async () => (await cs.consoleGet('/console/api/status')).deliveries_in_flight,
    /** Counts a subscription's deliveries made at or after `sinceIso`, by status (pages newest first, bounded). */
    async deliveryStatuses(subId, sinceIso, maxPages = 200) {
      const counts = {};
      let after;
      for (let page = 0; page < maxPages; page++) {
        const q = after ? `?limit=100&starting_after=${after}` : '?limit=100';
        const res = await call(`${api}/v2/webhooks/${subId}/deliveries${q}`, { headers });
        for (const d of res.data) {
          if (d.created_at < sinceIso) return counts;
          const k = `${d.status}/${d.attempts}`;
          counts[k] = (counts[k] ?? 0) + 1;
        }
        if (!res.has_more || res.data.length === 0) return counts;
        after = res.data[res.data.length - 1].public_id ?? res.data[res.data.length - 1].id;
      }
      return counts;
    },
  };
  return cs;
}

/** The receiver's counters. */
export const receiverStats = (receiverUrl) => call(`${receiverUrl}/__stats`);

/**
 * Waits until the receiver has seen `expected` Countersign deliveries and the engine has
 * nothing in flight (so every attempt is logged). Resolves with the epoch ms it saw that.
 */
export async function waitDrained(cs, receiverUrl, expected, { timeoutMs = 120_000 } = {}) {
  await waitFor(`${expected} deliveries at the receiver`, async () => (await receiverStats(receiverUrl)).counts.cs >= expected, {
    timeoutMs,
    intervalMs: 10,
  });
  await waitFor('no delivery in flight', async () => (await cs.inFlight()) === 0, { timeoutMs: 30_000, intervalMs: 5 });
  return performance.timeOrigin + performance.now();
}
