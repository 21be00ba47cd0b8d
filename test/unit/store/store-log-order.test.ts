// The order of a commit's two files: the journal line is appended only once the history
// log has written (not yet synced) every record appended before the commit, so a process
// killed in between never leaves a journal line (an event the service owes deliveries
// for) without the log lines that are those deliveries (docs/storage.md, "What a crash
// keeps of the deliveries"). The store and its journal are real files; the log is a
// stand-in whose write-out the test holds and releases, since the real writer's timing
// cannot be held at a chosen moment.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src-main/backend/store/store.js';
import type { UndoableLog } from '../../../src-main/backend/store/history-types.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-log-order-'));
  store = new Store(dir);
  await store.open();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const journal = () => readFile(join(dir, 'journal-0.jsonl'), 'utf8').catch(() => '');
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** A log whose write-out resolves (or fails) when the test says. */
function heldLog() {
  const held: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const log: UndoableLog = {
    flush: async () => undefined,
    mark: () => ({ segment: 1, size: 0 }),
    rollback: async () => undefined,
    writeOut: () => new Promise<void>((resolve, reject) => held.push({ resolve, reject })),
  };
  return { log, held };
}

describe('a commit with a history log attached', () => {
  it('appends its journal line only after the log has written what came before it', async () => {
    const { log, held } = heldLog();
    store.attachLog(log);
    store.pendingEvents.insert({ id: 'evt_1', company_id: 'co_1', type: 'document.updated', timestamp: '', document_id: null, body: '{}' });
    let done = false;
    const committed = store.commit().then(() => (done = true));
    await turns(20);
    expect(held).toHaveLength(1);
    expect(await journal()).toBe('');
    expect(done).toBe(false);
    held[0].resolve();
    await committed;
    expect(await journal()).toContain('"evt_1"');
  });

  it('appends nothing when the log cannot write, and the commit fails', async () => {
    const { log, held } = heldLog();
    store.attachLog(log);
    store.pendingEvents.insert({ id: 'evt_2', company_id: 'co_1', type: 'document.updated', timestamp: '', document_id: null, body: '{}' });
    const committed = store.commit();
    await turns(20);
    held[0].reject(new Error('disk on fire'));
    await expect(committed).rejects.toThrow();
    expect(await journal()).toBe('');
    expect(store.pendingEvents.has('evt_2')).toBe(false); // undone: the store reloaded its last good state
  });
});
