// Every row of the error table (docs/api.md section 5), over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend, type ApiResponse } from '../helpers/backend.js';

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.destroy());

function expectError(res: ApiResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(Object.keys(res.body)).toEqual(['error']);
  // No stack trace or internal path, ever.
  expect(res.text).not.toMatch(/\n\s+at |src-main|node_modules|\.ts:\d/);
}

async function draft() {
  const res = await t.api('POST', '/v2/test_helpers/documents', { title: 'NDA', recipients: [{ name: 'Ann', email: 'ann@example.com' }] });
  expect(res.status).toBe(201);
  return res.body;
}

describe('error shape and codes', () => {
  it('400 invalid_json: bytes that are not JSON', async () => {
    expectError(await t.api('POST', '/v2/webhooks', '{"url": "https://a.example",'), 400, 'invalid_json');
  });
  it('400 invalid_json: JSON that is not an object', async () => {
    expectError(await t.api('POST', '/v2/webhooks', '[1,2]'), 400, 'invalid_json');
    expectError(await t.api('POST', '/v2/webhooks', 'null'), 400, 'invalid_json');
  });
  it('401 unauthorized: missing and unknown keys', async () => {
    expectError(await t.api('GET', '/v2/webhooks', undefined, null), 401, 'unauthorized');
    expectError(await t.api('GET', '/v2/webhooks', undefined, 'cs_not_a_key'), 401, 'unauthorized');
  });
  it('403 forbidden: a member on an admin route', async () => {
    const member = (await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member' })).body.key;
    expectError(await t.api('GET', '/v2/webhooks', undefined, member), 403, 'forbidden');
  });
  it('404 not_found: unknown route and unknown id', async () => {
    expectError(await t.api('GET', '/v2/nothing-here'), 404, 'not_found');
    expectError(await t.api('GET', '/documents/doc_unknown'), 404, 'not_found');
    expectError(await t.api('GET', '/v2/webhooks/wh_unknown'), 404, 'not_found');
  });
  it('409 invalid_document_status with details.status', async () => {
    const doc = await draft();
    const res = await t.api('POST', `/documents/${doc.public_id}/remind`);
    expectError(res, 409, 'invalid_document_status');
    expect(res.body.error.details).toEqual({ status: 'DRAFT' });
  });
  it('413 payload_too_large over 1 MiB', async () => {
    const doc = await draft();
    const big = JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) });
    expectError(await t.api('PUT', `/documents/${doc.public_id}`, big), 413, 'payload_too_large');
  });
  it('415 unsupported_media_type for a body that is not JSON', async () => {
    const doc = await draft();
    expectError(
      await t.api('PUT', `/documents/${doc.public_id}`, 'title=x', undefined, { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await t.api('PUT', `/documents/${doc.public_id}`, '{"title":"x"}', undefined, { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
  });
  it('422 validation_error with details.fields', async () => {
    const res = await t.api('POST', '/v2/webhooks', { url: 'ftp://x', type: 'nope' });
    expectError(res, 422, 'validation_error');
    const fields = res.body.error.details.fields.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['type', 'url']);
    for (const f of res.body.error.details.fields) expect(f.message.length).toBeGreaterThan(0);
  });
  it('500 internal_error: a defect answers generically, with no stack or path', async () => {
    const doc = await draft();
    // Injected failure: the disk refuses the journal append (the only way to force a
    // defect-like failure here). The store replaces its journal handle after a failure.
    const journal = (t.backend.store as unknown as { journal: { append: () => Promise<void> } }).journal;
    journal.append = () => Promise.reject(new Error('EIO: i/o error, write /very/secret/path/journal-1.jsonl'));
    const res = await t.api('PUT', `/documents/${doc.public_id}`, { title: 'Changed' });
    expectError(res, 500, 'internal_error');
    expect(res.text).not.toContain('/very/secret/path');
    // Nothing half-applied: the failed change is gone from memory too, and later writes work.
    expect((await t.api('GET', `/documents/${doc.public_id}`)).body.title).toBe('NDA');
    expect((await t.api('PUT', `/documents/${doc.public_id}`, { title: 'Works again' })).status).toBe(200);
  });
});

describe('429 rate_limited', () => {
  let limited: TestBackend;
  beforeAll(async () => {
    limited = await startTestBackend({ rateLimit: 3 });
  });
  afterAll(() => limited.destroy());
  it('answers 429 with Retry-After past the per-key limit', async () => {
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await limited.api('GET', '/v2/webhooks'));
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(results[0].status).toBe(200);
    expectError(refused[0], 429, 'rate_limited');
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
