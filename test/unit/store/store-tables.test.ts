// The store's typed tables: every change goes through insert/update/remove (or the
// extensions' set/remove), reaches the journal with no other call, and is what a
// crash right after the commit leaves on disk. Real files in a temp folder.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src-main/backend/store/store.js';
import type { ApiKeyRecord, DocumentRecord } from '../../../src-main/backend/store/schema.js';
import { MemTable } from '../../../src-main/backend/store/table.js';
import { ChangeSet } from '../../../src-main/backend/store/journal.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-tables-'));
  store = new Store(dir);
  await store.open();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** A fresh store on a copy of the folder as it is on disk now (what a crash would leave). */
async function afterCrash<T>(read: (s: Store) => T): Promise<T> {
  const copy = await mkdtemp(join(tmpdir(), 'countersign-tables-copy-'));
  await cp(dir, copy, { recursive: true, filter: (src) => !src.endsWith('countersign.lock') });
  const s = new Store(copy);
  await s.open();
  try {
    return read(s);
  } finally {
    await s.close();
    await rm(copy, { recursive: true, force: true });
  }
}

const document = (id: string, title = 'Lease'): DocumentRecord => ({
  public_id: id,
  company_id: 'co_1',
  title,
  status: 'DRAFT',
  recipients: [{ public_id: 'rcp_1', name: 'Ann', email: 'ann@example.com', role: 'signer', status: 'pending', completed_at: null }],
  metadata: { deal: { id: 7 } },
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
});

const key = (id: string, hash: string): ApiKeyRecord => ({
  id,
  user_id: 'usr_1',
  company_id: 'co_1',
  role: 'admin',
  hash,
  hint: 'abcd',
  label: 'k',
  created_at: '',
});

describe('store tables', () => {
  it('keeps a copy of what is inserted, so the caller cannot change it behind the journal', async () => {
    const mine = document('doc_1');
    const stored = store.documents.insert(mine);
    mine.title = 'changed afterwards';
    mine.recipients[0].name = 'Eve';
    (mine.metadata.deal as { id: number }).id = 8;
    expect(store.documents.get('doc_1')).toBe(stored);
    expect(stored).toMatchObject({ title: 'Lease', recipients: [{ name: 'Ann' }], metadata: { deal: { id: 7 } } });
    expect(() => store.documents.insert(document('doc_1'))).toThrow(/already exists/);
  });

  it('stores what insertOwned is given itself, journaled like an insert', async () => {
    const row = {
      id: 'msg_1',
      event_id: 'evt_1',
      subscription_id: 'wh_1',
      company_id: 'co_1',
      event_type: 'document.sent' as const,
      document_id: null,
      created_at: '2026-11-26T10:00:00.000Z',
    };
    expect(store.pendingDeliveries.insertOwned(row)).toBe(row);
    expect(store.pendingDeliveries.get('msg_1')).toBe(row);
    expect(() => store.pendingDeliveries.insertOwned({ ...row })).toThrow(/already exists/);
    await store.commit();
    expect(await afterCrash((s) => s.pendingDeliveries.all())).toEqual([row]);
  });

  it('hands out read-only views (checked by the compiler)', () => {
    store.documents.insert(document('doc_1'));
    const view = store.documents.get('doc_1')!;
    // Never called: each line must fail to compile (tsc checks the tests).
    const mustNotCompile = () => {
      // @ts-expect-error a stored row is read-only
      view.title = 'x';
      // @ts-expect-error nested lists too
      view.recipients.push(view.recipients[0]);
      // @ts-expect-error and the records in them
      view.recipients[0].status = 'completed';
    };
    expect(typeof mustNotCompile).toBe('function');
  });

  it('updates in place by fields or by a function, keeps the order, and refuses a new key', async () => {
    for (const id of ['doc_1', 'doc_2', 'doc_3']) store.documents.insert(document(id));
    expect(store.documents.update('doc_2', { title: 'Second' })?.title).toBe('Second');
    store.documents.update('doc_1', (d) => {
      d.recipients[0].status = 'viewed';
      d.metadata = { n: 1 };
    });
    expect(store.documents.update('doc_nope', { title: 'x' })).toBeUndefined();
    expect(() => store.documents.update('doc_3', (d) => (d.public_id = 'doc_4'))).toThrow(/may not change the key/);
    expect(store.documents.all().map((d) => [d.public_id, d.title, d.recipients[0].status])).toEqual([
      ['doc_1', 'Lease', 'viewed'],
      ['doc_2', 'Second', 'pending'],
      ['doc_3', 'Lease', 'pending'],
    ]);
  });

  it('journals every insert, update and removal without being told, and a crash after the commit keeps them', async () => {
    store.documents.insert(document('doc_1'));
    store.documents.insert(document('doc_2'));
    store.documents.insert(document('doc_3'));
    await store.commit();
    store.documents.update('doc_1', { title: 'Changed' });
    store.documents.update('doc_2', (d) => (d.recipients[0].status = 'completed'));
    expect(store.documents.remove('doc_3')).toBe(true);
    expect(store.documents.remove('doc_3')).toBe(false);
    store.extensions.set('settings', { theme: 'dark', list: [1, 2] });
    await store.commit();
    const seen = await afterCrash((s) => ({
      docs: s.documents.all().map((d) => [d.public_id, d.title, d.recipients[0].status]),
      settings: s.extensions.get('settings'),
    }));
    expect(seen).toEqual({
      docs: [
        ['doc_1', 'Changed', 'pending'],
        ['doc_2', 'Lease', 'completed'],
      ],
      settings: { theme: 'dark', list: [1, 2] },
    });
    store.extensions.remove('settings');
    await store.commit();
    expect(await afterCrash((s) => s.extensions.get('settings'))).toBeUndefined();
  });

  it('stores a copy of an extension value', async () => {
    const value = { inboxes: [{ id: 'inb_1' }] };
    store.extensions.set('receiver', value);
    value.inboxes.push({ id: 'inb_2' });
    expect(store.extensions.get('receiver')).toEqual({ inboxes: [{ id: 'inb_1' }] });
  });

  it('forgets what a memo keeps for a row when the row is updated, removed or reloaded', () => {
    const memo = store.documents.memo<string>(10);
    const other = store.documents.memo<string>(10);
    const d1 = store.documents.insert(document('doc_1'));
    const d2 = store.documents.insert(document('doc_2'));
    memo.set(d1, 'one');
    memo.set(d2, 'two');
    other.set(d1, 'other one');
    store.documents.update('doc_2', { title: 'Unrelated' });
    expect([memo.get(d1), memo.get(d2), other.get(d1)]).toEqual(['one', undefined, 'other one']);
    store.documents.update('doc_1', (d) => (d.recipients[0].status = 'viewed'));
    expect([memo.get(d1), other.get(d1)]).toEqual([undefined, undefined]);
    memo.set(d1, 'again');
    expect(() => store.documents.update('doc_1', (d) => ((d.title = 'half'), (d.public_id = 'doc_9')))).toThrow(/may not change the key/);
    expect(memo.get(d1)).toBeUndefined();
    memo.set(d1, 'again');
    store.documents.remove('doc_1');
    expect(memo.get(d1)).toBeUndefined();

    const table = new MemTable<DocumentRecord>('documents', 'public_id', new ChangeSet(), (d) => ({ ...d }));
    const loaded = document('doc_3');
    table.load([loaded]);
    const kept = table.memo<string>(10);
    kept.set(table.get('doc_3')!, 'three');
    table.load([loaded]);
    expect(kept.get(loaded)).toBeUndefined();
  });

  it('keeps at most as many memo values as it was given, then starts afresh', () => {
    const memo = store.documents.memo<number>(3);
    const rows = [1, 2, 3, 4].map((n) => store.documents.insert(document(`doc_${n}`)));
    rows.slice(0, 3).forEach((row, i) => memo.set(row, i));
    expect(rows.map((r) => memo.get(r))).toEqual([0, 1, 2, undefined]);
    memo.set(rows[3], 3);
    expect(rows.map((r) => memo.get(r))).toEqual([undefined, undefined, undefined, 3]);
  });

  it('finds API keys by hash, in step with inserts and removals, after a restart too', async () => {
    store.apiKeys.insert(key('key_1', 'h1'));
    store.apiKeys.insert(key('key_2', 'h2'));
    store.apiKeys.remove('key_1');
    expect(store.apiKeys.byHash('h1')).toBeUndefined();
    expect(store.apiKeys.byHash('h2')?.id).toBe('key_2');
    await store.commit();
    expect(await afterCrash((s) => [s.apiKeys.byHash('h1'), s.apiKeys.byHash('h2')?.id])).toEqual([undefined, 'key_2']);
  });

  it('runs what waits for durability after the commit, once its committer resumed; never after a failed write', async () => {
    const order: string[] = [];
    store.documents.insert(document('doc_1'));
    store.whenDurable(() => order.push('durable'));
    await store.commit();
    order.push('committer');
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['committer', 'durable']);

    let fail = true;
    store.alsoFlush(async () => {
      if (fail) throw new Error('disk on fire');
    });
    let reloaded = 0;
    store.onReload(() => reloaded++);
    store.documents.insert(document('doc_2'));
    store.whenDurable(() => order.push('never'));
    await expect(store.commit()).rejects.toThrow('disk on fire');
    fail = false;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['committer', 'durable']);
    expect(reloaded).toBe(1);
  });

  it('writes in the background with commitLater', async () => {
    store.documents.insert(document('doc_1'));
    store.commitLater();
    await store.settle();
    expect(await afterCrash((s) => s.documents.has('doc_1'))).toBe(true);
  });
});
