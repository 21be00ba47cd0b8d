// Two headless Countersigns as child processes (the built entry, as scripts run it): one
// plays the real service, the other connects to it with its key from its own
// environment, the headless key source. Then the remote is killed mid-session: the
// console gets a clear offline answer at once, not a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { callApi } from '../helpers/http.js';

/** The remote's own admin key: not the local one's, so only the environment can have given it. */
const REMOTE_KEY = 'cs_remote_admin_key_0000000000000';

let remote: Headless;
let local: Headless;

beforeAll(async () => {
  remote = await startHeadless({ env: { COUNTERSIGN_ADMIN_KEY: REMOTE_KEY } });
  local = await startHeadless({ env: { MY_REMOTE_KEY: REMOTE_KEY } });
}, 60_000);
afterAll(async () => {
  await local?.stop();
  await remote?.stop();
});

describe('a headless Countersign connected to another', () => {
  it('reads the key from its environment, manages the remote’s webhooks, and says when the remote is gone', async () => {
    const made = await local.consoleApi('POST', '/connections', {
      name: 'The real service',
      base_url: remote.urls.api_url,
      app_url: remote.urls.app_url,
      api_key_env: 'MY_REMOTE_KEY',
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id;
    expect((await local.consoleApi('GET', `/connections/${id}/check`)).body).toMatchObject({ state: 'online' });

    const sub = await local.consoleApi('POST', `/connections/${id}/remote/v2/webhooks`, {
      url: 'https://hooks.example.com/x',
      type: 'all',
    });
    expect(sub.status).toBe(201);
    expect((await callApi(remote.urls.api_url, 'GET', `/v2/webhooks/${sub.body.public_id}`, undefined, REMOTE_KEY)).body).toMatchObject({
      url: 'https://hooks.example.com/x',
    });
    // The local service itself is untouched.
    expect((await local.api('GET', '/v2/webhooks')).body.data).toEqual([]);

    expect(await remote.stop()).toBe(0);
    const started = Date.now();
    const gone = await local.consoleApi('GET', `/connections/${id}/remote/v2/webhooks`);
    expect(gone.status).toBe(502);
    expect(gone.body.error.code).toBe('remote_unreachable');
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await local.consoleApi('GET', `/connections/${id}/check`)).body.state).toBe('offline');
  });
});
