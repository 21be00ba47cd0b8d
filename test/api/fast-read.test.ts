// The hot read's fast path must answer exactly as the Express route does, and leave
// every other case to Express. A query string makes the fast path decline (Express's
// route ignores it), so the same document is served both ways for comparison.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';

let fast: TestBackend;
let limited: TestBackend;
beforeAll(async () => {
  fast = await startTestBackend();
  limited = await startTestBackend({ rateLimit: 1 });
});
afterAll(async () => {
  await fast.destroy();
  await limited.destroy();
});

const make = (t: TestBackend) =>
  t.api('POST', '/v2/test_helpers/documents', {
    title: 'Same <b>bytes</b> é',
    recipients: [{ name: 'A', email: 'a@b.co' }],
    metadata: { n: 1 },
  });

describe('GET /documents/{id} fast path', () => {
  it('gives the same status, headers and bytes as the Express route', async () => {
    const a = (await make(fast)).body;
    const ra = await fast.api('GET', `/documents/${a.public_id}`);
    const rb = await fast.api('GET', `/documents/${a.public_id}?via=express`);
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    const headers = (r: typeof ra) => [...r.headers].filter(([k]) => k !== 'date');
    expect(headers(ra)).toEqual(headers(rb));
    expect(Number(ra.headers.get('content-length'))).toBe(Buffer.byteLength(ra.text));
    expect(ra.headers.get('x-powered-by')).toBeNull();
    expect(ra.text).toBe(rb.text);
    expect(ra.body).toEqual(a);
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
  it('counts a request once against the per-key rate limit, whichever path answers it', async () => {
    // One request a second, a bucket of one: each fresh key may make one request now.
    const freshKey = () => otherCompanyAdmin(limited.backend, 'Limited Co');
    const a = (
      await limited.api(
        'POST',
        '/v2/test_helpers/documents',
        { title: 'T', recipients: [{ name: 'A', email: 'a@b.co' }] },
        await freshKey(),
      )
    ).body;
    const k1 = await freshKey();
    const k2 = await freshKey();
    // Declined by the fast path before it takes a token: Express's own token is the only one.
    expect((await limited.api('GET', '/documents/doc_unknown', undefined, k1)).status).toBe(404);
    expect((await limited.api('GET', `/documents/${a.public_id}`, undefined, k1)).status).toBe(429);
    // Answered by the fast path, which took the key's token: the next request, on any route, is over.
    const served = await limited.api('GET', `/documents/${a.public_id}`, undefined, k2);
    const over = await limited.api('GET', `/documents/${a.public_id}`, undefined, k2);
    const elsewhere = await limited.api('GET', '/documents', undefined, k2);
    expect(served.status).toBe(200);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(elsewhere.status).toBe(429);
  });
});
