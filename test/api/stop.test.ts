// Backend.stop(): every listener closes (the API's and the receiver's), answers the
// receiver still owes end, and every store is flushed (main store, history log, the
// receiver's captures), so what was answered is on disk when stop() resolves.
import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestBackend | undefined;
afterEach(async () => {
  await t?.destroy();
  t = undefined;
});

describe('stop()', () => {
  it('closes both listeners, ends hung answers, and leaves every capture on disk', async () => {
    t = await startTestBackend();
    const hang = (await t.consoleApi('POST', '/inboxes', { name: 'hang', response: { mode: 'hang' } })).body;
    const ok = (await t.consoleApi('POST', '/inboxes', { name: 'ok' })).body;
    const hung = fetch(`${t.urls.receiver_url}/in/${hang.id}`, { method: 'POST', body: '{}' }).then(
      (r) => r.status,
      () => 'cut',
    );
    await waitUntil('the hung request captured', async () => (await t!.consoleApi('GET', `/inboxes/${hang.id}/captures`)).body.data[0]);
    // Answered just before stop(): their captures must be on disk once it resolves.
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${t!.urls.receiver_url}/in/${ok.id}`, { method: 'POST', body: JSON.stringify({ i }) }).then((r) =>
          r.headers.get('x-countersign-capture'),
        ),
      ),
    );
    const doc = (await t.api('POST', '/v2/test_helpers/documents', { title: 'Kept', recipients: [{ name: 'a', email: 'a@b.co' }] })).body;

    const started = Date.now();
    await t.backend.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await hung).toBe('cut');
    const file = await readFile(join(t.dataDir, 'captures', `${ok.id}.jsonl`), 'utf8');
    for (const id of ids) expect(file).toContain(id);
    const data = JSON.parse(await readFile(join(t.dataDir, 'data.json'), 'utf8'));
    expect(data.documents.map((d: { public_id: string }) => d.public_id)).toContain(doc.public_id);
    await expect(fetch(`${t.urls.api_url}/v2/webhooks`)).rejects.toThrow();
    await expect(fetch(`${t.urls.receiver_url}/in/${ok.id}`, { method: 'POST', body: '{}' })).rejects.toThrow();
    // A second stop() is the same one.
    expect(t.backend.stop()).toBe(t.backend.stop());
    await t.backend.stop();
  });
});
