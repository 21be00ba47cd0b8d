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
});
