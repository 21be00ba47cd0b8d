// The history's index let go while the service idles and rebuilt from the files when next
// needed (history/held-index.ts; docs/storage.md, "The delivery history in memory"). Two
// logs in two folders are given the same records, one of them letting its index go at
// every quiet point: every answer (summaries, every page and cursor of every list, the
// inspector's order, attempts, events and their bodies, what is pending) must be the same
// in both, at every point, and after a restart; the index let go must be collectable (no
// reference kept to it anywhere), and a busy log must keep its index.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src-main/backend/clock.js';
import type { DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { HOLD_MS, indexReleaseDue, releaseIdleIndexes } from '../../../src-main/backend/store/history/held-index.js';
import { readSidecarSync } from '../../../src-main/backend/store/history/sidecar.js';
import { attempt, historyLogs, internals, settle } from './history-fixtures.js';
import { answers, attemptsOf, fill } from './history-answers.js';

const setup = historyLogs({ cap: 10_000, segmentDeliveries: 40 });

/** Everything the log answers, attempts, events and their bodies included. */
async function everything(log: HistoryLog, ids: string[]): Promise<string> {
  const events: unknown[] = [];
  for (let i = 0; i < 4 * Math.ceil(ids.length / 4); i += 4) events.push(log.getEvent(`evt_${i}`), await log.getEventBody(`evt_${i}`));
  const docs = ['doc_0', 'doc_1', 'doc_2'].map((d) => log.eventsForDocument('co_a', d));
  // What is pending, by id: in slot order, which a rebuild (like a restart) need not keep, and which only start-up reads.
  const pending = log.pendingDeliveries().sort((a, b) => (a.id < b.id ? -1 : 1));
  return JSON.stringify([answers(log, ids), await attemptsOf(log, ids), events, docs, pending]);
}

/** A full garbage collection (V8's gc(), exposed for this test only), in a later turn: a WeakRef made in this one holds its target until it ends. */
async function collect(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Where `root` reaches a typed array of `min` bytes or more over a plain (malloc'd) ArrayBuffer, by path. */
function mallocdArrays(root: unknown, min: number): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, path: string): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      if (v.byteLength >= min && !(v.buffer as ArrayBuffer & { resizable?: boolean }).resizable) found.push(`${path} (${v.byteLength} B)`);
      return;
    }
    const entries =
      v instanceof Map || v instanceof Set
        ? [...v.entries()].map(([k, x], i) => [String(typeof k === 'object' ? i : k), x])
        : Object.entries(v);
    for (const [k, x] of entries) walk(x, `${path}.${k}`);
  };
  walk(root, '');
  return found;
}

describe('history log: the index let go while idle', () => {
  it('answers exactly as a log that kept its index, after each rebuild, with records added between, and after a restart', async () => {
    const clock = new ManualClock(Date.parse('2026-11-27T03:00:00.000Z'));
    // The control: its clock stands still, so its index, made less than HOLD_MS ago, is never let go.
    const kept = (await (await setup()).open({ clock: new ManualClock(clock.now()) })).log;
    const { open } = await setup();
    const log = (await open({ clock })).log;
    const want = fill(log, 400);
    fill(kept, 400);
    const ids = [...want.keys()];
    // Sidecars still being written: the log is not quiet and keeps its index.
    expect(releaseIdleIndexes()).toBe(0);
    await settle(log);
    await settle(kept);
    // Made less than HOLD_MS ago (at open): kept.
    expect(releaseIdleIndexes()).toBe(0);
    clock.advance(HOLD_MS);
    const before = await everything(kept, ids);

    expect(log.getDelivery(ids[0])).toBeDefined();
    const gone = new WeakRef(internals(log).idx);
    expect(internals(log).bodies.bytes).toBeGreaterThan(0);
    expect(releaseIdleIndexes()).toBe(1);
    expect(internals(log).held.held).toBe(false);
    // The recent events' bodies went with it (attempts logged from now on hold their own copy).
    expect(internals(log).bodies.bytes).toBe(0);
    expect(internals(kept).bodies.bytes).toBeGreaterThan(0);
    await collect();
    expect(gone.deref() === undefined).toBe(true); // nothing kept the index let go
    expect(await everything(log, ids)).toBe(before);
    expect(internals(log).held.reloads).toBe(1);
    expect(internals(kept).held.reloads).toBe(0);
    // Rebuilt just now: kept, however quiet.
    expect(releaseIdleIndexes()).toBe(0);

    // More records after the rebuild, among them a retry of a failed delivery of the first segment.
    const more = fill(log, 200, 400);
    fill(kept, 200, 400);
    const old = want.get('msg_00005') as DeliverySummary;
    const retried = { ...old, status: 'succeeded' as const, attempts: 2, last_status_code: 200, last_error: null };
    for (const l of [log, kept]) l.recordAttempted(attempt({ delivery_id: old.id, subscription_id: old.subscription_id }), retried);
    const all = [...ids, ...more.keys()];
    await settle(log);
    await settle(kept);
    const after = await everything(kept, all);
    expect(after).not.toBe(before);
    expect(await everything(log, all)).toBe(after);
    clock.advance(HOLD_MS);
    expect(releaseIdleIndexes()).toBe(1);
    // A fan-out of new ids first, into a full segment: the rotation begins a segment (no file yet) and the index is
    // rebuilt within it; then an attempt.
    const template = { ...old, status: 'pending' as const, attempts: 0 };
    const targets = ['msg_f0', 'msg_f1'].map((id, j) => ({ id, subscription_id: `wh_${j}` }));
    for (const l of [log, kept]) l.recordFanout(template, targets, [old.url, old.url]);
    expect(internals(log).held.reloads).toBe(2);
    all.push('msg_f0', 'msg_f1');
    // A write first: the index is rebuilt by the call that needs it, then the write lands in it.
    for (const l of [log, kept])
      l.recordAttempted(attempt({ delivery_id: old.id, subscription_id: old.subscription_id, attempt: 3 }), { ...retried, attempts: 3 });
    await settle(log);
    await settle(kept);
    const last = await everything(kept, all);
    expect(await everything(log, all)).toBe(last);
    await log.close();
    expect(await everything((await open({ clock })).log, all)).toBe(last);
  });

  it("rebuilds into memory mapped from the system, never into malloc'd blocks (a freed one kept the C heap grown for good)", async () => {
    const clock = new ManualClock(Date.parse('2026-11-27T03:00:00.000Z'));
    const { dir, open } = await setup();
    const log = (await open({ clock })).log;
    fill(log, 2400); // one company: its time order's slots alone are ~10 KB
    await settle(log);
    clock.advance(HOLD_MS);
    expect(releaseIdleIndexes()).toBe(1);
    expect(log.getDelivery('msg_00001')?.id).toBe('msg_00001');
    expect(internals(log).held.reloads).toBe(1);
    expect(mallocdArrays(internals(log).idx, 4096)).toEqual([]);
    // What each sidecar decodes to (the rebuild's and start-up's transient columns), however small.
    const name = (await readdir(dir)).filter((f) => f.endsWith('.idx')).sort()[0];
    const segment = join(dir, name.replace(/\.idx$/, '.jsonl'));
    const data = readSidecarSync(segment, internals(log).idx.segs.get(Number(/seg-(\d+)/.exec(name)?.[1]))?.size ?? -1);
    expect(typeof data).toBe('object');
    expect(mallocdArrays(data, 1)).toEqual([]);
  });

  it('keeps the index while a write is buffered, and lets it go once it is written', async () => {
    const clock = new ManualClock(Date.parse('2026-11-27T03:00:00.000Z'));
    const { open } = await setup();
    const log = (await open({ clock })).log;
    fill(log, 100);
    await settle(log);
    expect(indexReleaseDue()).toBe(false); // made less than HOLD_MS ago
    clock.advance(HOLD_MS);
    expect(indexReleaseDue()).toBe(true); // what asks the idle collector for one more collection
    fill(log, 4, 100); // buffered, not written yet
    expect(indexReleaseDue()).toBe(false);
    expect(internals(log).held.release()).toBe(false);
    await settle(log);
    expect(internals(log).held.release()).toBe(true);
    expect(indexReleaseDue()).toBe(false);
    expect(log.getDelivery('msg_00101')?.id).toBe('msg_00101');
  });

  it('rebuilds from the segment itself when an index file was damaged meanwhile, and stays usable when a rebuild fails', async () => {
    const clock = new ManualClock(Date.parse('2026-11-27T03:00:00.000Z'));
    const { dir, open } = await setup();
    const log = (await open({ clock })).log;
    const want = fill(log, 200);
    const ids = [...want.keys()];
    await settle(log);
    const before = await everything(log, ids);
    const sidecars = (await readdir(dir)).filter((f) => f.endsWith('.idx')).sort();
    expect(sidecars.length).toBeGreaterThanOrEqual(4);
    await writeFile(join(dir, sidecars[1]), 'not an index');
    await rm(join(dir, sidecars[2]));
    clock.advance(HOLD_MS);
    expect(releaseIdleIndexes()).toBe(1);
    expect(await everything(log, ids)).toBe(before); // as start-up would: those two segments read in full

    // A segment gone when the index is rebuilt: the call that needed it fails, the log's own state is untouched,
    // and once the file is back the next call rebuilds and answers as before, and records go on.
    clock.advance(HOLD_MS);
    expect(releaseIdleIndexes()).toBe(1);
    const first = join(dir, sidecars[0].replace(/\.idx$/, '.jsonl'));
    await rename(first, `${first}.away`);
    expect(() => log.getDelivery(ids[0])).toThrow(/seg-\d+\.jsonl/);
    expect(internals(log).held.held).toBe(false);
    await rename(`${first}.away`, first);
    expect(await everything(log, ids)).toBe(before);
    const more = fill(log, 40, 200);
    await settle(log);
    const all = [...ids, ...more.keys()];
    const after = await everything(log, all);
    await log.close();
    expect(await everything((await open({ clock })).log, all)).toBe(after);
  });
});
