// Issue 9, finding 1, the way it was found: an upload flood to one inbox, with no
// credentials, over loopback against the built headless process (900 KB POSTs, 4 at a
// time, some over the 1 MiB limit), while another inbox receives small well-behaved
// requests. Before the capture write queue was bounded the process grew by ~180 MB a
// second and died of heap exhaustion. Now: the process lives, its RSS stays within a
// bound set by configuration (memory budget, captures kept) plus the runtime, the
// flooded inbox answers only 2xx, 413 or 503 (with Retry-After), and the well-behaved
// inbox answers every request, each one kept. The figures are printed for the report.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startHeadless } from '../helpers/headless.js';

const FLOOD_MS = 6000;
const SENDERS = 4;
const BODY = Buffer.alloc(900 * 1024, 'a');
const OVERSIZE = Buffer.alloc(1536 * 1024, 'b');
/** Over the RSS before the flood: the 64 MiB budget, the 32 MiB of captures an inbox keeps, and room for the runtime's garbage. */
const RSS_GROWTH_LIMIT_MB = 256;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an upload flood to one inbox', () => {
  it('is answered with back-pressure, not buffered: the process lives, memory stays bounded, other inboxes keep working', async () => {
    const h = await startHeadless();
    const agent = new Agent({ connections: SENDERS + 1 });
    try {
      const flooded = (await h.consoleApi('POST', '/inboxes', { name: 'flooded' })).body;
      const calm = (await h.consoleApi('POST', '/inboxes', { name: 'calm' })).body;
      const pid = h.child.pid!;
      await sleep(500);
      const before = rssMb(pid);
      const flood: Record<string, number> = {};
      let retryAfterMissing = 0;
      const calmStatuses: number[] = [];
      const end = Date.now() + FLOOD_MS;
      let maxRss = before;
      const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssMb(pid))), 100);

      const flooder = async (n: number) => {
        for (let i = 0; Date.now() < end; i++) {
          const body = (i + n) % 10 === 0 ? OVERSIZE : BODY;
          try {
            const r = await request(flooded.local_url, { method: 'POST', body, dispatcher: agent });
            await r.body.dump();
            flood[r.statusCode] = (flood[r.statusCode] ?? 0) + 1;
            if (r.statusCode === 503 && r.headers['retry-after'] !== '1') retryAfterMissing++;
          } catch (err) {
            // A refused oversize upload may be cut while it is still being sent.
            const code = (err as { code?: string }).code ?? 'error';
            flood[code] = (flood[code] ?? 0) + 1;
          }
        }
      };
      const calmSender = async () => {
        for (let i = 0; Date.now() < end; i++) {
          const r = await request(calm.local_url, {
            method: 'POST',
            body: JSON.stringify({ type: 'document.sent', n: i }),
            headers: { 'content-type': 'application/json' },
            dispatcher: agent,
          });
          await r.body.dump();
          calmStatuses.push(r.statusCode);
          await sleep(50);
        }
      };
      await Promise.all([...Array.from({ length: SENDERS }, (_, n) => flooder(n)), calmSender()]);
      clearInterval(sampler);
      const during = maxRss;
      await sleep(2000);
      const after = rssMb(pid);
      const answered = Object.entries(flood)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      console.log(
        `[flood] ${FLOOD_MS / 1000} s, ${SENDERS} senders of 900 KB (1 in 10 of 1.5 MB): answered ${answered}; ` +
          `RSS before ${before} MB, max during ${during} MB, after ${after} MB; calm inbox: ${calmStatuses.length} requests, ` +
          `${calmStatuses.filter((s) => s === 200).length} answered 200`,
      );

      expect(h.child.exitCode).toBeNull();
      expect(h.child.signalCode).toBeNull();
      expect(during - before).toBeLessThan(RSS_GROWTH_LIMIT_MB);
      expect(Object.keys(flood).every((k) => ['200', '413', '503', 'UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(k))).toBe(true);
      expect(flood['200']).toBeGreaterThan(0);
      expect(flood['413']).toBeGreaterThan(0);
      expect(retryAfterMissing).toBe(0);
      expect(calmStatuses.length).toBeGreaterThan(10);
      expect(calmStatuses.every((s) => s === 200)).toBe(true);
      const kept = (await h.consoleApi('GET', `/inboxes/${calm.id}`)).body.capture_count;
      expect(kept).toBe(calmStatuses.length);
    } finally {
      await agent.close();
      expect(await h.stop()).toBe(0);
    }
  });
});
