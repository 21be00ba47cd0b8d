// The durable store (DESIGN.md "Storage"): one writer per data directory, a corrupt
// file kept aside untouched, changes on disk before the answer.
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDataDir, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { DataDirLockedError } from '../../src-main/backend/store/data-dir-lock.js';

const running: TestBackend[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.destroy();
});
async function start(dir?: string) {
  const t = await startTestBackend({}, dir);
  running.push(t);
  return t;
}

describe('store', () => {
  it('has every change on disk when the API answers', async () => {
    const t = await start();
    const doc = (await t.api('POST', '/v2/test_helpers/documents', { title: 'On disk', recipients: [{ name: 'a', email: 'a@b.co' }] })).body;
    const put = await t.api('PUT', `/documents/${doc.public_id}`, { title: 'Changed on disk' });
    expect(put.status).toBe(200);
    // Read right after the answer, without waiting for anything.
    const onDisk = JSON.parse(await readFile(join(t.dataDir, 'data.json'), 'utf8'));
    expect(onDisk.documents.find((d: { public_id: string }) => d.public_id === doc.public_id).title).toBe('Changed on disk');
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
    expect((await t.api('POST', '/v2/test_helpers/documents', { title: 'fresh', recipients: [{ name: 'a', email: 'a@b.co' }] })).status).toBe(201);
    expect(await readFile(join(dir, aside[0]), 'utf8')).toBe(content);
  });
});
