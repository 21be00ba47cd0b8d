// The durable store (docs/storage.md): one writer per data directory, a corrupt
// file kept aside untouched, changes on disk before the answer.
import { describe, expect, it } from 'vitest';
import { appendFile, readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { crashCopy, makeDataDir, backendsPerTest, startTestBackend } from '../helpers/backend.js';
import { Store } from '../../src-main/backend/store/store.js';
import { createHistoryLog } from '../../src-main/backend/store/history-log.js';
import { Outbox } from '../../src-main/backend/delivery/outbox.js';
import { systemClock } from '../../src-main/backend/clock.js';
import { DataDirLockedError } from '../../src-main/backend/store/data-dir-lock.js';

const { start } = backendsPerTest();

describe('store', () => {
  it('has every change, its event and its pending delivery on disk when the API answers', async () => {
    // A long retry wait: the delivery stays pending while the copy is taken, however
    // slowly (the default test schedule finished it in 150 ms, under load before the copy).
    const t = await start(undefined, { retrySchedule: [60] });
    await t.api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/unreachable', type: 'document.updated' });
    const doc = (await t.api('POST', '/v2/test_helpers/documents', { title: 'On disk', recipients: [{ name: 'a', email: 'a@b.co' }] }))
      .body;
    const put = await t.api('PUT', `/documents/${doc.public_id}`, { title: 'Changed on disk' });
    expect(put.status).toBe(200);
    // What a crash right after the answer would leave, opened by a fresh store and history log.
    const copy = await crashCopy(t.dataDir);
    const store = new Store(copy);
    const history = createHistoryLog({ dir: join(copy, 'history'), cap: 1000 });
    await store.open();
    await history.open();
    try {
      expect(store.documents.get(doc.public_id)?.title).toBe('Changed on disk');
      const events = store.pendingEvents.filter((e) => e.document_id === doc.public_id);
      expect(events.map((e) => e.type)).toContain('document.updated');
      const updated = events.find((e) => e.type === 'document.updated')!;
      expect(JSON.parse(updated.body).data.document.title).toBe('Changed on disk');
      // The delivery is owed: the log says it is pending, and its event is stored.
      const owed = new Outbox({ store, history, clock: systemClock }).stored();
      expect(owed.find((w) => w.row.event_id === updated.id)).toBeDefined();
    } finally {
      await store.close();
      await history.close();
    }
  });

  it('replays the journal after a crash and folds it into data.json on a clean stop', async () => {
    const t = await start();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await t.api('POST', '/v2/test_helpers/documents', { title: `Doc ${i}`, recipients: [{ name: 'a', email: 'a@b.co' }] })).body
          .public_id,
      );
    await t.api('PUT', `/documents/${ids[2]}`, { metadata: { v: 2 } });
    const journals = (await readdir(t.dataDir)).filter((f) => f.startsWith('journal-'));
    expect(journals).toHaveLength(1);
    // A torn line (a crash mid-append) is dropped whole; everything before it stays.
    const copy = await crashCopy(t.dataDir);
    await appendFile(join(copy, journals[0]), '[["documents","doc_torn",{"public_id":"doc_to');
    const crashed = new Store(copy);
    await crashed.open();
    expect(ids.map((id) => crashed.documents.get(id)?.title)).toEqual(ids.map((_, i) => `Doc ${i}`));
    expect(crashed.documents.get(ids[2])?.metadata).toEqual({ v: 2 });
    expect(crashed.documents.has('doc_torn')).toBe(false);
    await crashed.close();
    // Closed cleanly: data.json alone holds everything.
    const folded = JSON.parse(await readFile(join(copy, 'data.json'), 'utf8'));
    expect(folded.documents.map((d: { public_id: string }) => d.public_id)).toEqual(expect.arrayContaining(ids));
    // The journal that continues it is empty; only the previous checkpoint's journal is
    // kept beside it (with data.json.prev, to rebuild a damaged data.json).
    const journalsLeft = (await readdir(copy)).filter((f) => f.startsWith('journal-') && statSync(join(copy, f)).size > 0);
    expect(journalsLeft.every((f) => Number(/\d+/.exec(f)![0]) < folded.journal_generation)).toBe(true);
    expect(journalsLeft.length).toBeLessThanOrEqual(1);
  });

  it('refuses a second instance on the same data directory, and allows one after the first stops', async () => {
    const t = await start();
    await expect(startTestBackend({}, t.dataDir)).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(startTestBackend({}, t.dataDir)).rejects.toThrow(/Another Countersign instance/);
    // The refused start left the first one intact.
    expect((await t.api('GET', '/v2/webhooks')).status).toBe(200);
    await t.stop();
    const again = await startTestBackend({}, t.dataDir);
    await again.stop();
  });

  it('takes over a lock whose process is gone', async () => {
    const dir = await makeDataDir();
    await writeFile(join(dir, 'countersign.lock'), '999999999');
    const t = await start(dir);
    expect((await t.api('GET', '/v2/webhooks')).status).toBe(200);
  });

  it('keeps journals aside with a corrupt checkpoint, rather than replaying them onto nothing', async () => {
    const t = await start();
    await t.api('POST', '/v2/test_helpers/documents', { title: 'journaled', recipients: [{ name: 'a', email: 'a@b.co' }] });
    const copy = await crashCopy(t.dataDir);
    const journal = (await readdir(copy)).find((f) => f.startsWith('journal-'))!;
    const journalText = await readFile(join(copy, journal), 'utf8');
    expect(journalText).toContain('journaled');
    await writeFile(join(copy, 'data.json'), '{"schema_version":1,"compa');
    const t2 = await start(copy);
    expect(t2.backend.warnings.join(' ')).toMatch(/kept unchanged/);
    const files = await readdir(copy);
    const aside = files.find((f) => f.startsWith(`${journal}.corrupt-`));
    expect(aside).toBeDefined();
    expect(await readFile(join(copy, aside!), 'utf8')).toBe(journalText);
    expect(t2.backend.store.documents.all()).toEqual([]);
  });

  it.each([
    ['truncated', '{"schema_version":1,"companies":[{"id":"co_1","na'],
    ['not JSON', 'garbage\u0000\u0001'],
    ['wrong shape', '{"schema_version":1,"companies":"nope"}'],
  ])('keeps a %s store aside, untouched, and says so', async (_name, content) => {
    const dir = await makeDataDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'data.json'), content);
    const t = await start(dir);
    expect(t.backend.warnings.join(' ')).toMatch(/unreadable.*kept unchanged at .*data\.json\.corrupt-/);
    const aside = (await readdir(dir)).filter((f) => f.startsWith('data.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir, aside[0]), 'utf8')).toBe(content);
    // The service works on a fresh store, and writing it never touches the kept file.
    expect(
      (await t.api('POST', '/v2/test_helpers/documents', { title: 'fresh', recipients: [{ name: 'a', email: 'a@b.co' }] })).status,
    ).toBe(201);
    expect(await readFile(join(dir, aside[0]), 'utf8')).toBe(content);
  });
});
