// One event's deliveries recorded together (HistoryLog.recordDeliveries: lines and index
// rows written from the first delivery's, summary-bytes.ts FanoutLines, delivery-table.ts
// insertLike) against the same summaries recorded one at a time: the same segment bytes,
// the same summaries and lists, before and after a reopen, and after retention dropped
// older deliveries (the shared strings' reference counts must hold).
import { afterEach, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { delivery, event, tempDir } from './history-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
const logs: HistoryLog[] = [];
afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => {});
  for (const c of cleanups.splice(0)) await c();
});

async function openLog(cap: number): Promise<{ dir: string; log: HistoryLog; reopen: () => Promise<HistoryLog> }> {
  const t = await tempDir();
  cleanups.push(t.cleanup);
  const make = async () => {
    const log = createHistoryLog({ dir: t.dir, cap, segmentDeliveries: 40, writeDelayMs: 1 });
    logs.push(log);
    await log.open();
    return log;
  };
  return { dir: t.dir, log: await make(), reopen: make };
}

async function bytesOf(dir: string): Promise<string> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
  return (await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')))).join('\n--\n');
}

/** Event `e`'s fan-out to `n` subscriptions, with the odd ones a caller may pass among them. */
function fanout(e: number, n: number): DeliverySummary[] {
  const base = {
    event_id: `evt_${e}`,
    created_at: `2030-01-01T00:00:${String(e % 60).padStart(2, '0')}.000Z`,
    next_attempt_at: 1_000 + e,
    status: e % 6 ? ('succeeded' as const) : ('pending' as const),
  }; // retention carries pending ones
  const out = Array.from({ length: n }, (_, k) =>
    delivery({
      ...base,
      id: `msg_${e}_${k}`,
      subscription_id: `wh_${k}`,
      url: `http://127.0.0.1:9/hook/${k}`,
      document_id: e % 3 ? `doc_${e}` : null,
    }),
  );
  if (e % 4 === 1) out[2] = { ...out[2], last_error: 'kept "as" é' }; // another value mid-batch: a template of its own
  if (e % 4 === 2) out[3] = { ...out[3], imported: true }; // a later key: written whole
  if (e % 4 === 3) out.push({ ...out[0], status: 'failed' }); // the same id again: a change of the first
  if (e % 5 === 4) out.splice(1, 0, { ...out[1], id: `msg_${e - 1}_1` }); // a delivery of an earlier event: a change
  return out;
}

/** recordFanout of each run of summaries that differ from the run's first only in their id, subscription and url. */
function recordAsFanouts(log: HistoryLog, vs: DeliverySummary[]): void {
  const own = new Set(['id', 'subscription_id', 'url']);
  const same = (a: DeliverySummary, b: DeliverySummary) =>
    JSON.stringify(Object.keys(a)) === JSON.stringify(Object.keys(b)) &&
    Object.keys(a).every((k) => own.has(k) || Object.is(a[k as keyof DeliverySummary], b[k as keyof DeliverySummary]));
  for (let i = 0; i < vs.length;) {
    let j = i + 1;
    while (j < vs.length && same(vs[i], vs[j])) j++;
    const run = vs.slice(i, j);
    log.recordFanout(
      vs[i],
      run,
      run.map((v) => v.url),
    );
    i = j;
  }
}

/**
 * Records `events` fan-outs one delivery at a time, together, or as `fresh` fan-outs
 * (recordFanout: ids just made, not looked up; then only the deliveries whose id is new
 * are recorded, in every mode, so the modes can be compared).
 */
async function record(
  log: HistoryLog,
  together: boolean | 'fresh',
  events: number,
  n: number,
  onlyNew = together === 'fresh',
): Promise<string[]> {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let e = 0; e < events; e++) {
    log.recordEvent(event({ id: `evt_${e}`, document_id: `doc_${e}` }), `{"n":${e}}`);
    const vs = onlyNew ? fanout(e, n).filter((v) => !seen.has(v.id) && seen.add(v.id)) : fanout(e, n);
    if (together === 'fresh') recordAsFanouts(log, vs);
    else if (together) log.recordDeliveries(vs);
    else for (const v of vs) log.recordDelivery(v);
    ids.push(...vs.map((v) => v.id));
    await log.flush();
  }
  return [...new Set(ids)];
}

function view(log: HistoryLog, ids: string[], events: number, n: number) {
  const page = { limit: 1000 };
  return {
    summaries: ids.map((id) => log.getDelivery(id) ?? null),
    company: log.listDeliveries({ company_id: 'co_a' }, page).data.map((d) => d.id),
    subs: Array.from({ length: n }, (_, k) =>
      log.listDeliveries({ company_id: 'co_a', subscription_id: `wh_${k}` }, page).data.map((d) => d.id),
    ),
    events: Array.from({ length: events }, (_, e) =>
      log.listDeliveries({ company_id: 'co_a', event_id: `evt_${e}` }, page).data.map((d) => d.id),
    ),
    pending: log
      .pendingDeliveries()
      .map((d) => d.id)
      .sort(),
  };
}

/**
 * Records `events` events fanned out to `subs` subscriptions one delivery at a time in one
 * log and as `mode` says in another: the same files, the same answers, before and after a reopen.
 */
async function sameAsOneAtATime(mode: true | 'fresh', events: number, subs: number): Promise<void> {
  const [one, other] = [await openLog(10_000), await openLog(10_000)];
  const ids = await record(one.log, false, events, subs, mode === 'fresh');
  expect(await record(other.log, mode, events, subs)).toEqual(ids);
  expect(await bytesOf(other.dir)).toBe(await bytesOf(one.dir));
  const expected = view(one.log, ids, events, subs);
  expect(expected.summaries.every((x) => x !== null)).toBe(true);
  expect(view(other.log, ids, events, subs)).toEqual(expected);
  await other.log.close();
  expect(view(await other.reopen(), ids, events, subs)).toEqual(expected);
}

describe('history log: a fan-out recorded together', () => {
  it('writes the same bytes and reads back the same as one delivery at a time, before and after a reopen', async () => {
    await sameAsOneAtATime(true, 12, 7);
  });

  it('writes the same bytes and reads back the same with fresh ids (not looked up) as one delivery at a time', async () => {
    await sameAsOneAtATime('fresh', 40, 9);
  });

  it('keeps the shared strings of the deliveries left after retention dropped older ones', async () => {
    const [one, all] = [await openLog(100), await openLog(100)];
    const ids = await record(one.log, false, 40, 9);
    await record(all.log, true, 40, 9);
    for (const log of [one.log, all.log]) await log.close();
    const [a, b] = [await one.reopen(), await all.reopen()];
    const expected = view(a, ids, 40, 9);
    expect(expected.summaries.filter((s) => s === null).length).toBeGreaterThan(100); // retention ran
    expect(view(b, ids, 40, 9)).toEqual(expected);
    // And after more deliveries reuse the freed slots and strings.
    const more = await record(b, true, 45, 9);
    const ref = await record(a, false, 45, 9);
    expect(view(b, more, 45, 9)).toEqual(view(a, ref, 45, 9));
  });
});
