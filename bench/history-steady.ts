// Diagnostic (not part of the test suite): what the history log holds in memory when
// retention keeps it at its cap and deliveries keep coming, as in the bench's soak
// (events fanned out to 10 subscriptions, one attempt each). Prints, after each round of
// `cap` deliveries, the index's typed storage, the JS heap and ArrayBuffers after a full GC.
// Run:
//   npx rolldown bench/history-steady.ts --platform node --format esm --file /tmp/history-steady.mjs
//   node --expose-gc /tmp/history-steady.mjs [cap=20000] [rounds=10] [fanout=10]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistoryLog } from '../src-main/backend/store/history-log.js';
import type { AttemptRecord, DeliverySummary, EventSummary } from '../src-main/backend/store/history-types.js';
import { newId } from '../src-main/backend/ids.js';
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

/** Resident KiB of [heap] (glibc's main arena) and of every other anonymous mapping, from /proc/self/smaps. */
function resident(): string {
  let heap = 0;
  let anon = 0;
  let name = '';
  for (const line of readFileSync('/proc/self/smaps', 'latin1').split('\n')) {
    const m = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) name = m[1];
    else if (line.startsWith('Rss:')) {
      const kb = Number(line.split(/\s+/)[1]);
      if (name === '[heap]') heap += kb;
      else if (name === '') anon += kb;
    }
  }
  const v8 = getHeapSpaceStatistics().reduce((a, s) => a + s.physical_space_size, 0) / 1024;
  return `[heap] ${(heap / 1024).toFixed(1)} anon ${(anon / 1024).toFixed(1)} (v8 ${(v8 / 1024).toFixed(1)})`;
}

const cap = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 10);
const fanout = Number(process.argv[4] ?? 10);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const root = await mkdtemp(join(tmpdir(), 'history-steady-'));
const log = createHistoryLog({ dir: join(root, 'history'), cap });
await log.open();
const subs = Array.from({ length: fanout }, () => newId('wh'));
const docs = Array.from({ length: 50 }, () => newId('doc'));
const body = JSON.stringify({ type: 'document.updated', data: { title: 'x'.repeat(600) } });
let t = Date.parse('2026-11-26T10:00:00.000Z');

function summary(id: string, evt: string, sub: string, doc: string, at: string, done: boolean): DeliverySummary {
  return {
    id,
    event_id: evt,
    event_type: 'document.updated',
    subscription_id: sub,
    company_id: 'co_bench',
    document_id: doc,
    url: 'http://127.0.0.1:4011/hook',
    status: done ? 'succeeded' : 'pending',
    attempts: done ? 1 : 0,
    created_at: at,
    last_attempt_at: done ? at : null,
    last_status_code: done ? 200 : null,
    last_error: null,
    last_duration_ms: done ? 3 : null,
    next_attempt_at: null,
  };
}
function attemptOf(id: string, sub: string, at: string): AttemptRecord {
  return {
    delivery_id: id,
    subscription_id: sub,
    attempt: 1,
    started_at: at,
    duration_ms: 3,
    request: { method: 'POST', url: 'http://127.0.0.1:4011/hook', headers: { 'content-type': 'application/json', 'webhook-id': id }, body },
    response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok', truncated: false },
    error: null,
    succeeded: true,
    next_attempt_at: null,
    rule: 'success',
    rule_detail: '200: delivered',
  };
}

const r = log as unknown as { idx: Record<string, unknown>; retaining: Promise<void> | null };
const bytes = (o: unknown): number => {
  let sum = 0;
  for (const v of Object.values(o as Record<string, unknown>)) if (ArrayBuffer.isView(v)) sum += v.byteLength;
  return sum;
};
function structures(): string {
  const idx = r.idx as Record<string, Record<string, unknown>>;
  const d = idx.d;
  const parts: [string, number][] = [
    ['cols', bytes(d.c)],
    ['ids', (d.ids as unknown as { bytesHeld?: number }).bytesHeld ?? bytes(d.ids)], // bytes(): its Buffer is a view too
    // Of which, where closed segments' ids are out of memory (delivery-ids.ts): those in memory, and the closed ones' keys.
    ['ids.hot', ((d.ids as Record<string, unknown>).hot as { bytesHeld?: number } | undefined)?.bytesHeld ?? 0],
    ['ids.closed', ((d.ids as Record<string, unknown>).closed as { bytesHeld?: number } | undefined)?.bytesHeld ?? 0],
    ['ev', bytes(idx.ev)],
    ['pool', bytes(idx.pool)],
  ];
  let runs = 0;
  for (const k of ['byCompany', 'bySubscription', 'byDocument', 'byEvent', 'docEvents'])
    runs += (idx[k] as { runBytes?: number }).runBytes ?? 0;
  parts.push(['runs', runs]);
  const free = (d.freeSlots as number[]).length;
  return (
    parts.map(([k, b]) => `${k}=${(b / 1048576).toFixed(2)}`).join(' ') +
    ` freeSlots=${free} end=${d.used as number} size=${(d.ids as { size: number }).size}`
  );
}

let total = 0;
for (let round = 0; round < rounds; round++) {
  for (let n = 0; n < cap;) {
    const at = new Date((t += 7)).toISOString();
    const evt = newId('evt');
    const doc = docs[((n / fanout) % docs.length) | 0];
    const e: EventSummary = {
      id: evt,
      company_id: 'co_bench',
      type: 'document.updated',
      timestamp: at,
      document_id: doc,
      subscription_id: null,
    };
    log.recordEvent(e, body);
    const ids: string[] = [];
    for (let k = 0; k < fanout; k++, n++) {
      const id = newId('msg');
      ids.push(id);
      log.recordDelivery(summary(id, evt, subs[k], doc, at, false));
    }
    for (let k = 0; k < fanout; k++) log.recordAttempted(attemptOf(ids[k], subs[k], at), summary(ids[k], evt, subs[k], doc, at, true));
    if (n % 2000 === 0) await log.flush();
  }
  total += cap;
  await log.flush();
  while (r.retaining) await r.retaining;
  gc();
  gc();
  const m = process.memoryUsage();
  console.log(
    `${total} delivered: heap ${(m.heapUsed / 1048576).toFixed(1)} ab ${(m.arrayBuffers / 1048576).toFixed(1)} rss ${(m.rss / 1048576).toFixed(1)} ${resident()} | ${structures()}`,
  );
}
await log.close();
await rm(root, { recursive: true, force: true });
