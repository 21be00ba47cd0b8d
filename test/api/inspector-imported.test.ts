// Imported records look imported (issue 13 item 7): a delivery from an import file is
// marked in the inspector's rows and detail, and one that was waiting for a retry when it
// was exported is not counted as waiting here (the chart's retrying and pending), since
// it is never attempted on this machine; an imported inbox answers with the default mode
// until its own is turned on. Real HTTP on loopback against a whole backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitingDeliveryExport } from '../renderer/import-file.js';

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.destroy());

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('an imported delivery in the inspector', () => {
  it('is marked imported in the feed and the detail, and is not counted as waiting in the chart', async () => {
    const before = (await t.consoleApi('GET', '/inspector/stats?minutes=60')).body;
    const imported = await t.consoleApi('POST', '/import', waitingDeliveryExport());
    expect(imported.body.deliveries_added).toBe(1);

    const feed = (await t.consoleApi('GET', '/inspector/feed?limit=500')).body;
    const row = feed.data.find((r: any) => r.id === 'msg_importedwaiting');
    expect(row).toMatchObject({ kind: 'delivery', outcome: 'pending', imported: true });
    // A delivery made here is not marked.
    expect(feed.data.filter((r: any) => r.imported === true)).toHaveLength(1);

    const detail = (await t.consoleApi('GET', '/inspector/deliveries/msg_importedwaiting')).body;
    expect(detail.row.imported).toBe(true);

    const after = (await t.consoleApi('GET', '/inspector/stats?minutes=60')).body;
    expect(after.totals.retrying).toBe(before.totals.retrying);
    expect(after.totals.pending).toBe(before.totals.pending);
  });
});

describe('an imported inbox', () => {
  it('answers with the default until its own mode is turned on, and keeps that mode to turn on', async () => {
    const file = {
      format: 'countersign-export',
      version: 1,
      inboxes: [
        {
          id: 'inb_importedfailing',
          name: 'Failing',
          created_at: ago(60_000),
          response: { mode: 'status', status: 503 },
          secret_fingerprint: null,
        },
        {
          id: 'inb_importedplain',
          name: 'Plain',
          created_at: ago(60_000),
          response: { mode: 'status', status: 200 },
          secret_fingerprint: null,
        },
      ],
      captures: [],
      events: [],
      deliveries: [],
    };
    expect((await t.consoleApi('POST', '/import', file)).body.inboxes_created).toBe(2);
    const inbox = (await t.consoleApi('GET', '/inboxes/inb_importedfailing')).body;
    expect(inbox.response).toEqual({ mode: 'status', status: 200 });
    expect(inbox.imported_response).toEqual({ mode: 'status', status: 503 });
    expect(inbox.imported_response_description).toMatch(/503/);
    // An inbox imported with the default mode has nothing kept.
    expect((await t.consoleApi('GET', '/inboxes/inb_importedplain')).body).not.toHaveProperty('imported_response');

    // A request to it is answered 200, not with the old failure.
    const hit = await fetch(inbox.local_url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(hit.status).toBe(200);
    // A later export still carries the inbox's own mode.
    const exported = (await t.consoleApi('GET', '/export')).body;
    expect(exported.inboxes.find((i: any) => i.id === inbox.id).response).toEqual({ mode: 'status', status: 503 });

    // Turned on (the console's one click sends the kept mode): it answers with it, nothing is kept.
    const on = (await t.consoleApi('PATCH', `/inboxes/${inbox.id}`, { response: inbox.imported_response })).body;
    expect(on.response).toEqual({ mode: 'status', status: 503 });
    expect(on).not.toHaveProperty('imported_response');
    const again = await fetch(inbox.local_url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(again.status).toBe(503);
  });
});
