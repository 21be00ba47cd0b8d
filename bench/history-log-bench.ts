// Measures the history log (not part of the test suite): the cost of one more delivery
// (recordAttempt + recordDelivery, with group-commit-like flushes) with 1,000 vs 100,000
// deliveries already in history, startup time at 100,000, and read latencies.
// Run (one history size per process, so one run's heap does not slow the next):
//   npx rolldown bench/history-log-bench.ts --platform node --format esm --file /tmp/history-bench.mjs
//   node /tmp/history-bench.mjs 1000 && node /tmp/history-bench.mjs 100000
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistoryLog } from '../src-main/backend/store/history-log.js';
import type { AttemptRecord, DeliverySummary, HistoryLog } from '../src-main/backend/store/history-types.js';

const body = JSON.stringify({ id: 'evt_x', type: 'document.updated', data: { document: { title: 'x'.repeat(600), metadata: { a: 1 } } } });
let n = 0;

function summary(id: string, status: DeliverySummary['status'], attempts: number): DeliverySummary {
  const n = Number(id.slice(4));
  return {
    id,
    event_id: `evt_${id}`,
    event_type: 'document.updated',
    subscription_id: `wh_${n % 5}`,
    company_id: 'co_a',
    document_id: `doc_${n % 1000}`,
    url: 'http://127.0.0.1:4011/hook',
    status,
    attempts,
    created_at: new Date().toISOString(),
    last_attempt_at: null,
    last_status_code: 200,
    last_error: null,
    last_duration_ms: 3,
    next_attempt_at: null,
  };
}

function attemptOf(id: string): AttemptRecord {
  return {
    delivery_id: id,
    subscription_id: 'wh_1',
    attempt: 1,
    started_at: new Date().toISOString(),
    duration_ms: 3,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4011/hook',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': '1700000000',
        'webhook-signature': 'v1,' + 'A'.repeat(44),
      },
      body,
    },
    response: { status: 200, headers: { 'content-type': 'text/plain', date: new Date().toUTCString() }, body: 'ok', truncated: false },
    error: null,
    succeeded: true,
    next_attempt_at: null,
  };
}

/** One full delivery as the domain and engine would record it. */
function oneDelivery(log: HistoryLog): void {
  const id = `msg_${++n}`;
  log.recordEvent(
    {
      id: `evt_${id}`,
      company_id: 'co_a',
      type: 'document.updated',
      timestamp: new Date().toISOString(),
      document_id: `doc_${n % 1000}`,
      subscription_id: null,
    },
    body,
  );
  log.recordDelivery(summary(id, 'pending', 0));
  log.recordAttempt(attemptOf(id));
  log.recordDelivery(summary(id, 'succeeded', 1));
}

/** Just the engine's part per attempt: recordAttempt + recordDelivery, synchronous cost. */
function measureEngineOps(log: HistoryLog, count: number): number {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `msg_${++n}`;
    log.recordDelivery(summary(id, 'pending', 0));
    ids.push(id);
  }
  const attempts = ids.map(attemptOf);
  const finals = ids.map((id) => summary(id, 'succeeded', 1));
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    log.recordAttempt(attempts[i]);
    log.recordDelivery(finals[i]);
  }
  return ((performance.now() - t0) * 1000) / count;
}

async function measure(log: HistoryLog, count: number): Promise<{ perDeliveryUs: number; perSecond: number }> {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    oneDelivery(log);
    if (i % 200 === 199) await log.flush(); // like the store's group commit
  }
  await log.flush();
  const ms = performance.now() - t0;
  return { perDeliveryUs: (ms * 1000) / count, perSecond: Math.round((count / ms) * 1000) };
}

async function run(history: number): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'history-bench-'));
  const dir = join(root, 'h');
  try {
    const log = createHistoryLog({ dir, cap: 200_000 });
    await log.open();
    const tFill = performance.now();
    for (let i = 0; i < history; i++) {
      oneDelivery(log);
      if (i % 2000 === 1999) await log.flush();
    }
    await log.flush();
    const fillMs = performance.now() - tFill;
    const m = await measure(log, 10_000);
    await log.flush();
    const engineUs = [1, 2, 3].map(() => measureEngineOps(log, 5_000));
    await log.flush();
    const tList = performance.now();
    for (let i = 0; i < 100; i++)
      log.listDeliveries(
        { company_id: 'co_a', subscription_id: 'wh_3' },
        { limit: 50, starting_after: `msg_${Math.max(1, n - 5000 - i)}` },
      );
    const listUs = ((performance.now() - tList) * 1000) / 100;
    const tGet = performance.now();
    for (let i = 0; i < 100; i++) await log.getAttempts(`msg_${1 + i * Math.floor(n / 100)}`);
    const getMs = (performance.now() - tGet) / 100;
    await log.close();
    const tOpen = performance.now();
    const again = createHistoryLog({ dir, cap: 200_000 });
    await again.open();
    const openMs = performance.now() - tOpen;
    const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
    await again.close();
    console.log(
      `history ${history.toLocaleString('en')}: fill ${Math.round((history / fillMs) * 1000)}/s; ` +
        `next 10,000: ${m.perDeliveryUs.toFixed(1)} µs/delivery (${m.perSecond}/s, event + 2 summaries + attempt, flushed); ` +
        `recordAttempt+recordDelivery ${engineUs.map((u) => u.toFixed(1)).join(' / ')} µs; ` +
        `list page ${listUs.toFixed(0)} µs; getAttempts ${getMs.toFixed(2)} ms; reopen ${openMs.toFixed(0)} ms; rss ${rss} MiB`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await run(Number(process.argv[2] ?? 100_000));
