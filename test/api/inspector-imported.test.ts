// Imported records look imported (issue 13 item 7): a delivery from an import file is
// marked in the inspector's rows and detail, and one that was waiting for a retry when it
// was exported is not counted as waiting here (the chart's retrying and pending), since
// it is never attempted on this machine. Real HTTP on loopback against a whole backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.destroy());

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** An export file from elsewhere holding one delivery that was waiting for its third attempt. */
function exportFile() {
  const delivery = {
    id: 'msg_importedwaiting',
    event_id: 'evt_importedwaiting',
    event_type: 'document.completed',
    subscription_id: 'wh_elsewhere',
    company_id: 'co_x',
    document_id: 'doc_importedwaiting',
    url: 'https://example.com/hook',
    status: 'pending',
    attempts: 2,
    created_at: ago(120_000),
    last_attempt_at: ago(60_000),
    last_status_code: 503,
    last_error: null,
    last_duration_ms: 9,
    next_attempt_at: Date.now() + 240_000,
  };
  return {
    format: 'countersign-export',
    version: 1,
    inboxes: [],
    captures: [],
    events: [
      {
        event: {
          id: 'evt_importedwaiting',
          company_id: 'co_x',
          type: 'document.completed',
          timestamp: ago(120_000),
          document_id: 'doc_importedwaiting',
          subscription_id: null,
        },
        body: '{}',
      },
    ],
    deliveries: [{ delivery, attempts: [] }],
  };
}

describe('an imported delivery in the inspector', () => {
  it('is marked imported in the feed and the detail, and is not counted as waiting in the chart', async () => {
    const before = (await t.consoleApi('GET', '/inspector/stats?minutes=60')).body;
    const imported = await t.consoleApi('POST', '/import', exportFile());
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
