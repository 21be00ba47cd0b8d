// The examples the OpenAPI document shows (and the event catalog sends): one document,
// one subscription, one delivery, shaped exactly like real answers.
export const exampleRecipient = {
  public_id: 'rcp_YIbRLuKBllMJq0IB8gkIBA',
  name: 'Ann',
  email: 'ann@example.com',
  role: 'signer',
  status: 'completed',
  completed_at: '2026-11-22T10:33:01.048Z',
};

export const exampleDocument = {
  public_id: 'doc_YfyUjSONToa965byVBJjjT',
  title: 'Lease v2',
  status: 'OUT_FOR_SIGNATURE',
  recipients: [
    exampleRecipient,
    {
      ...exampleRecipient,
      public_id: 'rcp_7nM4S78GJfc22OW4Hc6RPy',
      name: 'Bo',
      email: 'bo@example.com',
      status: 'pending',
      completed_at: null,
    },
  ],
  metadata: { deal: 'D-18' },
  url: 'http://127.0.0.1:4010/app/documents?d=doc_YfyUjSONToa965byVBJjjT',
  created_at: '2026-11-22T10:33:00.934Z',
  updated_at: '2026-11-22T10:33:01.048Z',
};

export const exampleSubscription = {
  public_id: 'wh_xGOg7U00rYnHQtK0EQ7dlE',
  url: 'http://127.0.0.1:3000/webhooks/countersign',
  type: 'all',
  status: 'enabled',
  created_at: '2026-11-22T10:33:00.839Z',
};

export const exampleDelivery = {
  id: 'msg_2bq0aVhWkbrJ7iQ1Y0u7tC',
  event_id: 'evt_e7M3ALhpUShl4MLedGLLlp',
  event_type: 'document.sent',
  subscription_id: exampleSubscription.public_id,
  document_id: exampleDocument.public_id,
  url: exampleSubscription.url,
  status: 'succeeded',
  attempts: 1,
  created_at: '2026-11-22T10:33:01.049Z',
  last_attempt_at: '2026-11-22T10:33:01.052Z',
  last_status_code: 200,
  last_error: null,
  last_duration_ms: 4,
  next_attempt_at: null,
};

export const exampleValidationError = {
  error: {
    code: 'validation_error',
    message: 'limit: must be at least 1',
    details: { fields: [{ field: 'limit', message: 'must be at least 1' }] },
  },
};
