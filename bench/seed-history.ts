// Figure 8's seeder (not part of the test suite): appends `count` deliveries to a data
// directory's history log through the real history-log code (createHistoryLog, the
// same module the service uses), so the files are always in the service's current
// format. Every delivery is a copy of a real one (`template`, read from a running
// Countersign through its API): its event, its pending summary, its attempt (request
// and response exactly as sent and received, with this delivery's webhook-id) and its
// final summary, as the outbox and the engine record them, with fresh ids and times
// spread over the past. Each event fans out to one delivery per subscription given.
// Run by bench/lib/million.mjs: bundled with rolldown, then
//   node seed-history.mjs <config.json>
// The config names the history folder, the cap, the count, the subscriptions and the
// template; one JSON line of results goes to stdout.
import { readFileSync } from 'node:fs';
import { createHistoryLog } from '../src-main/backend/store/history-log.js';
import { newId } from '../src-main/backend/ids.js';
import type { AttemptRecord, DeliverySummary, EventSummary, HistoryLog } from '../src-main/backend/store/history-types.js';

interface Template {
  event: EventSummary;
  body: string;
  delivery: DeliverySummary;
  attempt: AttemptRecord;
}

interface Config {
  dir: string;
  cap: number;
  count: number;
  subscriptions: { id: string; url: string }[];
  template: Template;
  /** Epoch ms of the first seeded delivery; each event is `stepMs` later than the one before. */
  startMs: number;
  stepMs: number;
  /** How many delivery ids of the first subscription to return, spread evenly (deep pages start there). */
  sampleIds: number;
}

const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Config;
const t = cfg.template;

function event(ms: number): { ev: EventSummary; body: string } {
  const id = newId('evt');
  const timestamp = new Date(ms).toISOString();
  const body = t.body.replace(t.event.id, id).replace(t.event.timestamp, timestamp);
  return { ev: { ...t.event, id, timestamp }, body };
}

function deliveryOf(ev: EventSummary, sub: { id: string; url: string }): DeliverySummary {
  return {
    ...t.delivery,
    id: newId('msg'),
    event_id: ev.id,
    subscription_id: sub.id,
    url: sub.url,
    status: 'pending',
    attempts: 0,
    created_at: ev.timestamp,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    last_duration_ms: null,
    next_attempt_at: Date.parse(ev.timestamp),
  };
}

function attemptOf(d: DeliverySummary, body: string): AttemptRecord {
  const headers = { ...t.attempt.request.headers, 'webhook-id': d.id };
  return {
    ...t.attempt,
    delivery_id: d.id,
    subscription_id: d.subscription_id,
    started_at: d.created_at,
    request: { ...t.attempt.request, url: d.url, headers, body },
  };
}

async function seed(log: HistoryLog): Promise<string[]> {
  const fan = cfg.subscriptions.length;
  const events = Math.ceil(cfg.count / fan);
  const every = Math.max(1, Math.floor(events / Math.max(1, cfg.sampleIds)));
  const samples: string[] = [];
  let made = 0;
  for (let e = 0; e < events && made < cfg.count; e++) {
    const { ev, body } = event(cfg.startMs + e * cfg.stepMs);
    log.recordEvent(ev, body);
    for (let s = 0; s < fan && made < cfg.count; s++, made++) {
      const d = deliveryOf(ev, cfg.subscriptions[s]);
      log.recordDelivery(d);
      const a = attemptOf(d, body);
      log.recordAttempt(a);
      log.recordDelivery({
        ...d,
        status: t.delivery.status,
        attempts: 1,
        last_attempt_at: a.started_at,
        last_status_code: t.delivery.last_status_code,
        last_duration_ms: t.delivery.last_duration_ms,
        next_attempt_at: null,
      });
      if (s === 0 && e % every === 0 && samples.length < cfg.sampleIds) samples.push(d.id);
    }
    if (e % 5000 === 4999) await log.flush(); // bounded buffers, like the store's group commit
  }
  await log.flush();
  return samples;
}

const t0 = performance.now();
const log = createHistoryLog({ dir: cfg.dir, cap: cfg.cap });
const damage = await log.open();
const samples = await seed(log);
await log.close();
process.stdout.write(
  JSON.stringify({
    seeded: cfg.count,
    seconds: (performance.now() - t0) / 1000,
    rss_bytes: process.memoryUsage().rss,
    damage,
    sample_ids: samples,
  }) + '\n',
);
