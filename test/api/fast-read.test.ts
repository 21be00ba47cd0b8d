// The hot read's fast path must answer exactly as the Express route does, and leave
// every other case to Express. The rate limit switches the fast path off, so a backend
// with a generous limit serves the same route through Express for comparison.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';

let fast: TestBackend;
let viaExpress: TestBackend;
beforeAll(async () => {
  fast = await startTestBackend();
  viaExpress = await startTestBackend({ rateLimit: 100000 });
});
afterAll(async () => {
  await fast.destroy();
  await viaExpress.destroy();
});

const make = (t: TestBackend) =>
  t.api('POST', '/v2/test_helpers/documents', {
    title: 'Same <b>bytes</b> é',
    recipients: [{ name: 'A', email: 'a@b.co' }],
    metadata: { n: 1 },
  });

describe('GET /documents/{id} fast path', () => {
  it('gives the same status, content type and body shape as the Express route', async () => {
    const a = (await make(fast)).body;
    const b = (await make(viaExpress)).body;
    const ra = await fast.api('GET', `/documents/${a.public_id}`);
    const rb = await viaExpress.api('GET', `/documents/${b.public_id}`);
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(ra.headers.get('content-type')).toBe(rb.headers.get('content-type'));
    expect(Number(ra.headers.get('content-length'))).toBe(Buffer.byteLength(ra.text));
    expect(ra.headers.get('x-powered-by')).toBeNull();
    expect(rb.headers.get('x-powered-by')).toBeNull();
    expect(ra.body).toEqual(a);
    expect(Object.keys(ra.body)).toEqual(Object.keys(rb.body));
  });
  it('leaves errors and unusual URLs to Express', async () => {
    const a = (await make(fast)).body;
    expect((await fast.api('GET', `/documents/${a.public_id}`, undefined, null)).body.error.code).toBe('unauthorized');
    expect((await fast.api('GET', `/documents/${a.public_id}`, undefined, 'cs_wrong')).body.error.code).toBe('unauthorized');
    expect((await fast.api('GET', '/documents/doc_unknown')).body.error.code).toBe('not_found');
    const other = await otherCompanyAdmin(fast.backend, 'Elsewhere');
    expect((await fast.api('GET', `/documents/${a.public_id}`, undefined, other)).status).toBe(404);
    expect((await fast.api('GET', `/documents/${a.public_id}?expand=1`)).body.public_id).toBe(a.public_id);
    expect((await fast.api('GET', `/documents/${a.public_id}/`)).status).toBe(200);
  });
  it('answers the document as it is now: its kept bytes are dropped when it changes', async () => {
    const a = (await make(fast)).body;
    const first = await fast.api('GET', `/documents/${a.public_id}`);
    expect((await fast.api('GET', `/documents/${a.public_id}`)).text).toBe(first.text);
    const put = await fast.api('PUT', `/documents/${a.public_id}`, { title: 'Renamed — ü' });
    expect(put.status).toBe(200);
    const after = await fast.api('GET', `/documents/${a.public_id}`);
    expect(after.body.title).toBe('Renamed — ü');
    expect(after.text).toBe(put.text);
    expect(Number(after.headers.get('content-length'))).toBe(Buffer.byteLength(after.text));
    const sent = await fast.api('POST', `/v2/test_helpers/documents/${a.public_id}/send`);
    expect(sent.status).toBe(200);
    expect((await fast.api('GET', `/documents/${a.public_id}`)).body.status).toBe(sent.body.status);
  });
  it('refuses a key on the first request after it is revoked, though it was just let in', async () => {
    const a = (await make(fast)).body;
    const made = (await fast.api('POST', '/v2/test_helpers/api_keys', { role: 'member' })).body;
    for (let i = 0; i < 3; i++) expect((await fast.api('GET', `/documents/${a.public_id}`, undefined, made.key)).status).toBe(200);
    expect((await fast.consoleApi('DELETE', `/api-keys/${made.id}`)).status).toBe(204);
    const refused = await fast.api('GET', `/documents/${a.public_id}`, undefined, made.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    expect((await fast.api('GET', `/documents/${a.public_id}`)).status).toBe(200);
  });
});
