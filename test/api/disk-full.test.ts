// Issue 9 finding 4: after a disk-full, writes stayed broken until a restart; a PUT
// answered 500 had in fact been saved (and its webhook delivered); a clean stop exited 1
// and left the lock file. Reproduced on a real full disk: a small tmpfs mount filled up
// under a running backend.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { mountTmpfs, removeFile, tmpfsUnavailable, type Tmpfs } from '../helpers/tmpfs.js';

const unavailable = tmpfsUnavailable();
if (unavailable) console.warn(`disk-full tests skipped: ${unavailable}`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<{ fs: Tmpfs; t: TestBackend; sink: Sink; doc: string }> {
  const fs = mountTmpfs(8 * 1024 * 1024);
  cleanups.push(() => fs.unmount());
  const sink = await startSink();
  cleanups.push(() => sink.close());
  const t = await startTestBackend({}, join(fs.dir, 'data'));
  cleanups.push(() => t.stop());
  expect((await t.api('POST', '/v2/webhooks', { url: `${sink.url}/hook`, type: 'document.updated' })).status).toBe(201);
  const doc = (await t.api('POST', '/v2/test_helpers/documents', { title: 'Before', recipients: [{ name: 'a', email: 'a@b.co' }] })).body
    .public_id as string;
  return { fs, t, sink, doc };
}

// Bigger than the slack in the last page of any file (tmpfs allocates 4 KiB pages), so
// the journal line and the event body each need new pages of a full disk.
const big = { blob: 'x'.repeat(15_000) };

const titlesDelivered = (sink: Sink) => sink.received.map((r) => JSON.parse(r.body).data.document.title as string);

describe.skipIf(unavailable !== null)('a full disk', () => {
  it('refuses a write with 503 storage_unavailable, keeps nothing of it, and writes again once space returns', async () => {
    const { fs, t, sink, doc } = await setup();
    const filler = await fs.fill();
    const put = await t.api('PUT', `/documents/${doc}`, { title: 'Lost to a full disk', metadata: big });
    expect(put.status).toBe(503);
    expect(put.body.error.code).toBe('storage_unavailable');
    expect(put.body.error.message).toMatch(/disk|storage/i);
    // All or nothing: the answer said not saved, so nothing of it is in memory...
    expect((await t.api('GET', `/documents/${doc}`)).body.title).toBe('Before');
    // Space returns: the next write works, without a restart.
    await removeFile(filler);
    const again = await t.api('PUT', `/documents/${doc}`, { title: 'After space returned' });
    expect(again.status).toBe(200);
    expect((await t.api('GET', `/documents/${doc}`)).body.title).toBe('After space returned');
    // ...nor delivered: only the write that was kept reaches the endpoint.
    await sink.waitFor(1);
    expect(titlesDelivered(sink)).toEqual(['After space returned']);
    // ...nor in the delivery history: one delivery, the kept write's.
    expect(
      t.backend.history.listDeliveries({ company_id: t.backend.store.documents.get(doc)!.company_id }, { limit: 10 }).data,
    ).toHaveLength(1);
    // ...nor kept on disk: a restart has the write that succeeded, not the refused one.
    await t.stop();
    expect(existsSync(join(t.dataDir, 'countersign.lock'))).toBe(false);
    const t2 = await startTestBackend({}, t.dataDir);
    cleanups.push(() => t2.stop());
    expect((await t2.api('GET', `/documents/${doc}`)).body.title).toBe('After space returned');
  });

  it('stops cleanly on a full disk: stop() resolves and the lock file is removed', async () => {
    const { fs, t, doc } = await setup();
    await fs.fill();
    expect((await t.api('PUT', `/documents/${doc}`, { title: 'Refused', metadata: big })).status).toBe(503);
    await expect(t.stop()).resolves.toBeUndefined();
    expect(existsSync(join(t.dataDir, 'countersign.lock'))).toBe(false);
  });
});
