// /v2/test_helpers/inboxes over real HTTP: what `countersign listen` uses to make a
// forwarding inbox with an API key. An inbox made there belongs to the key's company:
// another company's admin cannot see or delete it, a member is refused, the console sees
// it, secrets are not shown, and the forward target rule applies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';

let t: TestBackend;
let adminB: string;
let memberA: string;

beforeAll(async () => {
  t = await startTestBackend();
  adminB = await otherCompanyAdmin(t.backend, 'Other Co');
  memberA = (await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member' })).body.key;
});
afterAll(() => t.destroy());

describe('/v2/test_helpers/inboxes', () => {
  it('makes a forwarding inbox for the key’s company, which alone reads and deletes it there', async () => {
    const made = await t.api('POST', '/v2/test_helpers/inboxes', {
      name: 'cli',
      response: { mode: 'forward', url: 'http://localhost:3000/hooks' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'cli', response: { mode: 'forward', url: 'http://localhost:3000/hooks' } });
    expect(made.body.local_url).toBe(`${t.urls.receiver_url}/in/${made.body.id}`);
    expect(made.body.secret).toBeUndefined();
    expect(made.body.company_id).toBeUndefined();
    expect((await t.api('GET', `/v2/test_helpers/inboxes/${made.body.id}`)).body.id).toBe(made.body.id);
    // The console sees every inbox.
    expect((await t.consoleApi('GET', `/inboxes/${made.body.id}`)).status).toBe(200);

    expect((await t.api('GET', `/v2/test_helpers/inboxes/${made.body.id}`, undefined, adminB)).status).toBe(404);
    expect((await t.api('DELETE', `/v2/test_helpers/inboxes/${made.body.id}`, undefined, adminB)).status).toBe(404);
    expect((await t.api('DELETE', `/v2/test_helpers/inboxes/${made.body.id}`, undefined, memberA)).status).toBe(403);
    expect((await t.consoleApi('GET', `/inboxes/${made.body.id}`)).status).toBe(200);

    expect((await t.api('DELETE', `/v2/test_helpers/inboxes/${made.body.id}`)).status).toBe(204);
    expect((await t.consoleApi('GET', `/inboxes/${made.body.id}`)).status).toBe(404);
  });

  it('an inbox made in the console is not reachable here', async () => {
    const inbox = (await t.consoleApi('POST', '/inboxes', { name: 'console' })).body;
    expect((await t.api('GET', `/v2/test_helpers/inboxes/${inbox.id}`)).status).toBe(404);
    expect((await t.api('DELETE', `/v2/test_helpers/inboxes/${inbox.id}`)).status).toBe(404);
  });

  it('refuses a secret, and a forward target off this machine, with 422 naming the field', async () => {
    const secret = await t.api('POST', '/v2/test_helpers/inboxes', { secret: 'whsec_x' });
    expect(secret.status).toBe(422);
    expect(secret.body.error.details.fields[0].field).toBe('secret');
    const remote = await t.api('POST', '/v2/test_helpers/inboxes', { response: { mode: 'forward', url: 'http://169.254.169.254/' } });
    expect(remote.status).toBe(422);
    expect(remote.body.error.details.fields[0].field).toBe('response.url');
  });
});
