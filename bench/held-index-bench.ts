// The cost of the history's index let go at idle and rebuilt at the next call (store/
// history/held-index.ts; docs/storage.md): a history of `count` deliveries in segments of
// 25,000 (events to `fanout` subscriptions, each delivered once, as the engine logs them)
// is opened as start-up opens it, let go, and rebuilt by a lookup, `rounds` times; the
// open's and each rebuild's wall and CPU time and the process's RSS around them are printed.
// Run:
//   npx rolldown bench/held-index-bench.ts --platform node --format esm --file /tmp/held-index-bench.mjs
//   node --expose-gc /tmp/held-index-bench.mjs [count=200000] [fanout=10] [rounds=3]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src-main/backend/clock.js';
import { newId } from '../src-main/backend/ids.js';
import { createHistoryLog } from '../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../src-main/backend/store/history-types.js';
import { HOLD_MS, releaseIdleIndexes } from '../src-main/backend/store/history/held-index.js';

const count = Number(process.argv[2] ?? 200_000);
const fanout = Number(process.argv[3] ?? 10);
const rounds = Number(process.argv[4] ?? 3);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const rss = () => (process.memoryUsage().rss / 1048576).toFixed(1);

const root = await mkdtemp(join(tmpdir(), 'held-index-'));
const dir = join(root, 'history');
const clock = new ManualClock(Date.parse('2026-11-27T00:00:00.000Z'));
const opts = { dir, cap: count * 2, segmentDeliveries: 25_000, clock };
const body = JSON.stringify({ type: 'document.updated', data: { title: 'x'.repeat(600) } });
const subs = Array.from({ length: fanout }, () => newId('wh'));
const ids: string[] = [];

const writer = createHistoryLog(opts);
await writer.open();
for (let n = 0; n < count; n += fanout) {
  const at = new Date(clock.now() + n).toISOString();
  const evt = newId('evt');
  writer.recordEvent(
    { id: evt, company_id: 'co_bench', type: 'document.updated', timestamp: at, document_id: 'doc_1', subscription_id: null },
    body,
  );
  for (const sub of subs) {
    const id = newId('msg');
    ids.push(id);
    const v = {
      id,
      event_id: evt,
      event_type: 'document.updated' as const,
      subscription_id: sub,
      company_id: 'co_bench',
      document_id: 'doc_1',
    };
    const pending = { ...v, url: 'http://127.0.0.1:4011/hook', status: 'pending' as const, attempts: 0, created_at: at };
    const nulls = { last_attempt_at: null, last_status_code: null, last_error: null, last_duration_ms: null, next_attempt_at: null };
    writer.recordDelivery({ ...pending, ...nulls });
    const request = { method: 'POST' as const, url: pending.url, headers: { 'content-type': 'application/json', 'webhook-id': id }, body };
    const response = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok', truncated: false };
    const attempt = { delivery_id: id, subscription_id: sub, attempt: 1, started_at: at, duration_ms: 3, request, response };
    const done = {
      ...pending,
      ...nulls,
      status: 'succeeded' as const,
      attempts: 1,
      last_attempt_at: at,
      last_status_code: 200,
      last_duration_ms: 3,
    };
    writer.recordAttempted(
      { ...attempt, error: null, succeeded: true, next_attempt_at: null, rule: 'success', rule_detail: '200: delivered' },
      done,
    );
  }
  if (n % 10_000 === 0) await writer.writeOut();
}
await writer.close(); // every sidecar written

async function timed(what: string, fn: () => unknown): Promise<void> {
  gc?.();
  const before = rss();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  console.log(`${what}: ${ms.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU; RSS ${before} -> ${rss()} MiB`);
}

let log: HistoryLog | undefined;
await timed(`open (start-up) with ${count.toLocaleString('en-US')} deliveries`, async () => {
  log = createHistoryLog(opts);
  await log.open();
});
for (let round = 0; round < rounds; round++) {
  clock.advance(HOLD_MS);
  if (releaseIdleIndexes() !== 1) throw new Error('the index was not let go');
  await timed('let go', () => gc?.());
  await timed('rebuilt by a lookup', () => log?.getDelivery(ids[round * 997]));
}
await log?.close();
await rm(root, { recursive: true, force: true });
