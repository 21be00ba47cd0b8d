// Import files made up for tests of how imported records look (issue 13 item 7); used by
// the renderer tests and test/api (here because tsconfig.web.json reads only test/renderer;
// tsconfig.node.json lists this one file, which is plain data, for test/api).
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** An export file from elsewhere holding one delivery that was waiting for its third attempt. */
export function waitingDeliveryExport() {
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

/** An export file from elsewhere holding one inbox that answered 503. */
export function failingInboxExport() {
  return {
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
    ],
    captures: [],
    events: [],
    deliveries: [],
  };
}
