// When the store folds its journal into data.json: past the journal threshold, and only
// once the journal is also twice the state's size, so a large state (a backlog of
// pending deliveries) is not rewritten over and over; after a checkpoint, commits
// append to the new journal again. Real files in a temp folder.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src-main/backend/store/store.js';
import type { Notification } from '../../../src-main/backend/store/schema.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function openStore(checkpointBytes: number) {
  const dir = await mkdtemp(join(tmpdir(), 'countersign-checkpoint-'));
  const store = new Store(dir, { checkpointBytes });
  await store.open();
  cleanups.push(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { dir, store };
}

const note = (id: string, pad: number): Notification => ({
  id,
  company_id: 'co_1',
  document_id: 'doc_1',
  recipient_id: 'rcp_1',
  name: 'x'.repeat(pad),
  email: 'a@b.co',
  kind: 'reminder',
  created_at: '2025-01-01T00:00:00.000Z',
});

/** Size of the current journal (the newest generation; the previous checkpoint's is kept beside it). */
async function journalBytes(dir: string): Promise<number> {
  const gens = (await readdir(dir)).map((f) => /^journal-(\d+)\.jsonl$/.exec(f)).filter((m) => m !== null);
  if (gens.length === 0) return 0;
  const newest = Math.max(...gens.map((m) => Number(m[1])));
  return (await stat(join(dir, `journal-${newest}.jsonl`))).size;
}

/** Which checkpoint data.json is: every checkpoint writes a new file (a temp file renamed over it). */
async function checkpointOf(dir: string): Promise<number> {
  return (await stat(join(dir, 'data.json')).catch(() => ({ ino: -1 }))).ino;
}

/** Changes one 4 KB record per commit until a checkpoint happens; returns the journal size just before it. */
async function churnUntilCheckpoint(dir: string, store: Store, limit: number): Promise<number> {
  const first = await checkpointOf(dir);
  const n = note('ntf_churn', 4000);
  store.notifications.insert(n);
  for (let i = 0; i < limit; i++) {
    store.notifications.update(n.id, { created_at: new Date(i).toISOString() });
    const before = await journalBytes(dir);
    await store.commit();
    if ((await checkpointOf(dir)) !== first) return before;
  }
  throw new Error('no checkpoint');
}

describe('store checkpoints', () => {
  it('folds the journal into data.json past the threshold, then appends to a fresh journal', async () => {
    const { dir, store } = await openStore(32 * 1024);
    const before = await churnUntilCheckpoint(dir, store, 100);
    expect(before).toBeGreaterThan(32 * 1024 - 4200);
    expect(before).toBeLessThan(40 * 1024);
    // The new journal starts empty: the next commits append to it, they do not checkpoint again.
    const checkpoint = await checkpointOf(dir);
    for (let i = 0; i < 3; i++) {
      store.notifications.update('ntf_churn', { created_at: new Date(1e12 + i).toISOString() });
      await store.commit();
    }
    expect(await checkpointOf(dir)).toBe(checkpoint);
    expect(await journalBytes(dir)).toBeGreaterThan(3 * 4000);
  });

  it('waits for a journal twice the size of a large state', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'countersign-checkpoint-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const first = new Store(dir, { checkpointBytes: 32 * 1024 });
    await first.open();
    for (let i = 0; i < 2000; i++) first.notifications.insert(note(`ntf_${i}`, 150));
    await first.commit();
    expect(await checkpointOf(dir)).toBe(-1); // a commit journals; the store decides when to checkpoint
    // A clean close checkpoints; opening measures the state (~500 KB).
    await first.close();
    const store = new Store(dir, { checkpointBytes: 32 * 1024 });
    await store.open();
    cleanups.unshift(() => store.close());
    const state = (await stat(join(dir, 'data.json'))).size;
    expect(state).toBeGreaterThan(400_000);
    const before = await churnUntilCheckpoint(dir, store, 1000);
    expect(before).toBeGreaterThan(2 * state - 8000);
    expect(before).toBeLessThan(2 * state + 8000);
  });
});
