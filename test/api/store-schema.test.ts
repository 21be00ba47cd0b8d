// Issue 9 finding 8: a malformed record in data.json crashed the process on the first
// GET /documents/{id} (a TypeError in the fast read path). Every collection is now
// loaded through a schema: a record that does not fit is set aside, whole, in a
// rejected file, reported at start-up, and never reaches the code.
import { describe, expect, it } from 'vitest';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { backendsPerTest } from '../helpers/backend.js';

const { start, running } = backendsPerTest();

describe('records loaded through a schema', () => {
  it('sets a malformed record aside, reports it, and answers about it without crashing', async () => {
    const t = await start();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await t.api('POST', '/v2/test_helpers/documents', { title: `Doc ${i}`, recipients: [{ name: 'a', email: 'a@b.co' }] })).body
          .public_id,
      );
    await t.stop(); // everything folded into data.json
    running.pop();
    const path = join(t.dataDir, 'data.json');
    const data = JSON.parse(await readFile(path, 'utf8'));
    const broken = data.documents.find((d: { public_id: string }) => d.public_id === ids[1]);
    broken.recipients = 'not a list'; // what crashed the fast read path
    data.documents.find((d: { public_id: string }) => d.public_id === ids[2]).title = 42;
    data.notifications.push(null);
    await writeFile(path, JSON.stringify(data));

    const t2 = await start(t.dataDir);
    expect((await t2.api('GET', `/documents/${ids[0]}`)).status).toBe(200);
    for (const id of [ids[1], ids[2]]) {
      const r = await t2.api('GET', `/documents/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const report = (await t2.consoleApi('GET', '/status')).body.warnings.join('\n');
    expect(report).toMatch(/3 stored records do not have the shape/);
    expect(report).toContain(`documents ${ids[1]} (recipients:`);
    expect(report).toContain(`documents ${ids[2]} (title:`);
    const file = (await readdir(t.dataDir)).find((f) => /^data\.json\.rejected-.*\.json$/.test(f));
    expect(file).toBeDefined();
    expect(report).toContain(file!);
    const kept = JSON.parse(await readFile(join(t.dataDir, file!), 'utf8'));
    expect(kept.map((r: { collection: string }) => r.collection).sort()).toEqual(['documents', 'documents', 'notifications']);
    expect(kept.find((r: { record: { public_id?: string } | null }) => r.record?.public_id === ids[1]).record).toEqual(broken);
    // Still answering, and the next start is clean (the state was checkpointed without them).
    expect((await t2.api('GET', '/v2/webhooks')).status).toBe(200);
    await t2.stop();
    running.pop();
    const t3 = await start(t.dataDir);
    expect(t3.backend.warnings).toEqual([]);
  });
});
