// The store's group commit: a commit asked for in the continuation of another one (the
// moment its write loop is finishing) must still be written, not wait for a later caller.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src-main/backend/store/store.js';
import type { Notification } from '../../../src-main/backend/store/schema.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('store group commit', () => {
  it('writes a commit asked for right after another one resolved', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'countersign-commit-'));
    const store = new Store(dir);
    await store.open();
    cleanups.push(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    const n: Notification = {
      id: 'ntf_1',
      company_id: 'co_1',
      document_id: 'doc_1',
      recipient_id: 'rcp_1',
      name: 'a',
      email: 'a@b.co',
      kind: 'reminder',
      created_at: '',
    };
    store.notifications.insert(n);
    const timeout = (ms: number) => new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), ms));
    // Each iteration commits again in the very continuation of the previous commit.
    const commits = async () => {
      for (let i = 0; i < 20; i++) {
        store.notifications.update(n.id, { created_at: String(i) });
        await store.commit();
      }
      return 'done' as const;
    };
    expect(await Promise.race([commits(), timeout(3000)])).toBe('done');
    // And it is on disk: a fresh store sees the last change.
    await store.close();
    cleanups.pop();
    const again = new Store(dir);
    await again.open();
    expect(again.notifications.get('ntf_1')?.created_at).toBe('19');
    await again.close();
    await rm(dir, { recursive: true, force: true });
  });
});
