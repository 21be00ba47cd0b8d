// Measures the history log's disk use per delivery (not part of the test suite): N
// deliveries with a ~730-byte event body and one successful attempt, recorded through
// the HistoryLog API with the records the engine writes (event, pending summary, attempt
// with its final summary in one recordAttempted call as the engine makes it; real-looking
// ids, signature, headers), then bytes of the segment files
// divided by deliveries. Also checks that every attempt reads back exactly as recorded,
// after a reopen, and times the recording.
// Run:
//   npx rolldown bench/history-disk-bench.ts --platform node --format esm --file /tmp/history-disk.mjs
//   node /tmp/history-disk.mjs [deliveries=10000] [fan-out=1]
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createHistoryLog } from '../src-main/backend/store/history-log.js';
import type { AttemptRecord, DeliverySummary, EventSummary } from '../src-main/backend/store/history-types.js';
import { newId } from '../src-main/backend/ids.js';

const deliveries = Number(process.argv[2] ?? 10_000);
const fanOut = Number(process.argv[3] ?? 1);
const company = newId('co');
const docs = Array.from({ length: 50 }, () => newId('doc'));
const subs = Array.from({ length: fanOut }, () => newId('wh'));
let clock = Date.UTC(2026, 10, 26, 9, 0, 0);

const NAMES = ['Ann Lee', 'Bo Chen', 'Carla Diaz', 'Dmitri Ivanov', 'Eve Martin', 'Farah Khan', 'Gus Olsen', 'Hana Sato'];

/**
 * A document.updated body as the outbox builds it, with recipients (random ids, like the
 * service's) added until it is about `bytes` long: as compressible as a real one, not more.
 */
function eventBody(id: string, iso: string, doc: string, bytes: number): string {
  const recipients: object[] = [];
  const make = () =>
    JSON.stringify({
      id,
      type: 'document.updated',
      timestamp: iso,
      data: {
        document: {
          public_id: doc,
          title: `Bench title ${id.slice(4, 10)}`,
          status: 'SENT',
          recipients,
          metadata: { deal: `Q4-${id.charCodeAt(5)}` },
          url: `http://127.0.0.1:4010/app/documents?d=${doc}`,
          created_at: '2026-11-26T08:00:00.000Z',
          updated_at: iso,
        },
      },
    });
  for (let i = 0; make().length < bytes - 140; i++) {
    const name = NAMES[(id.charCodeAt(6 + i) + i) % NAMES.length];
    recipients.push({
      public_id: newId('rcp'),
      name,
      email: `${name.split(' ')[0].toLowerCase()}${i}@example.com`,
      role: 'signer',
      status: i % 2 ? 'viewed' : 'pending',
      completed_at: null,
    });
  }
  const body = make();
  return body.length < bytes ? body.replace('"Bench title', `"Bench title${' '.repeat(bytes - body.length)}`) : body;
}

function pending(id: string, eventId: string, sub: string, doc: string, iso: string, at: number): DeliverySummary {
  return {
    id,
    event_id: eventId,
    event_type: 'document.updated',
    subscription_id: sub,
    company_id: company,
    document_id: doc,
    url: `http://127.0.0.1:4011/cs/${sub.slice(-2)}`,
    status: 'pending',
    attempts: 0,
    created_at: iso,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    last_duration_ms: null,
    next_attempt_at: at,
  };
}

function attemptOf(d: DeliverySummary, body: string, started: number): AttemptRecord {
  const duration = 1 + (started % 7);
  return {
    delivery_id: d.id,
    subscription_id: d.subscription_id,
    attempt: 1,
    started_at: new Date(started).toISOString(),
    duration_ms: duration,
    request: {
      method: 'POST',
      url: d.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Countersign-Webhooks/0.1',
        'webhook-id': d.id,
        'webhook-timestamp': String(Math.floor(started / 1000)),
        'webhook-signature': 'v1,' + randomBytes(32).toString('base64'),
      },
      body,
    },
    response: {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'content-length': '11',
        date: new Date(started).toUTCString(),
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
      },
      body: '{"ok":true}',
      truncated: false,
    },
    error: null,
    succeeded: true,
    next_attempt_at: null,
    rule: 'success',
    rule_detail: '200: delivered',
  };
}

async function segmentBytes(dir: string): Promise<number> {
  let total = 0;
  for (const f of await readdir(dir)) total += (await stat(join(dir, f))).size;
  return total;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'history-disk-'));
  const dir = join(root, 'history');
  const recorded: AttemptRecord[] = [];
  const bodies = new Map<string, string>();
  let bodyBytes = 0;
  try {
    const log = createHistoryLog({ dir, cap: 200_000 });
    await log.open();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let made = 0; made < deliveries;) {
      clock += 37;
      const iso = new Date(clock).toISOString();
      const eventId = newId('evt');
      const doc = docs[made % docs.length];
      const body = eventBody(eventId, iso, doc, 730);
      bodyBytes += Buffer.byteLength(body);
      bodies.set(eventId, body);
      const event: EventSummary = {
        id: eventId,
        company_id: company,
        type: 'document.updated',
        timestamp: iso,
        document_id: doc,
        subscription_id: null,
      };
      log.recordEvent(event, body);
      const batch = subs.slice(0, deliveries - made).map((sub) => pending(newId('msg'), eventId, sub, doc, iso, clock));
      for (const d of batch) log.recordDelivery(d);
      for (const d of batch) {
        const a = attemptOf(d, body, clock + 5);
        recorded.push(a);
        log.recordAttempted(a, {
          ...d,
          status: 'succeeded',
          attempts: 1,
          last_attempt_at: a.started_at,
          last_status_code: 200,
          last_duration_ms: a.duration_ms,
          next_attempt_at: null,
        });
      }
      made += batch.length;
      if (made % 200 < fanOut) await log.flush();
    }
    await log.flush();
    const recordMs = performance.now() - t0;
    const recordCpu = process.cpuUsage(cpu0);
    await log.close();
    const bytes = await segmentBytes(dir);
    const again = createHistoryLog({ dir, cap: 200_000 });
    const tOpen = performance.now();
    const cpuOpen = process.cpuUsage();
    await again.open();
    const openMs = performance.now() - tOpen;
    const openCpu = process.cpuUsage(cpuOpen);
    let mismatches = 0;
    const tRead = performance.now();
    const cpuRead = process.cpuUsage();
    for (const a of recorded) {
      const [back] = await again.getAttempts(a.delivery_id);
      if (!isDeepStrictEqual(back, a) || JSON.stringify(back) !== JSON.stringify(a)) mismatches++;
    }
    const readMs = performance.now() - tRead;
    const readCpu = process.cpuUsage(cpuRead);
    for (const [id, body] of bodies) if ((await again.getEventBody(id)) !== body) mismatches++;
    await again.close();
    console.log(
      `${deliveries.toLocaleString('en')} deliveries, fan-out ${fanOut}, body ${Math.round(bodyBytes / bodies.size)} B: ` +
        `${bytes.toLocaleString('en')} B of segments = ${(bytes / deliveries).toFixed(0)} B/delivery; ` +
        `recording ${((recordMs * 1000) / deliveries).toFixed(1)} µs/delivery (CPU ${((recordCpu.user + recordCpu.system) / deliveries).toFixed(1)} µs); ` +
        `reopen ${openMs.toFixed(0)} ms (CPU ${((openCpu.user + openCpu.system) / 1000).toFixed(0)} ms); ` +
        `getAttempts ${((readMs * 1000) / recorded.length).toFixed(0)} µs each (CPU ${((readCpu.user + readCpu.system) / recorded.length).toFixed(0)} µs); ` +
        `read-back mismatches: ${mismatches}`,
    );
    if (mismatches > 0) process.exitCode = 1;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
