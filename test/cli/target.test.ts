// How a command finds the service it talks to (src-main/cli/target.ts, docs/cli.md):
// flags, then the environment, then a running local instance found through the
// instance.json and 0600 cli-token the BUILT headless entry writes (a real child
// process), else a temporary in-process service on free loopback ports.
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src-main/cli/target.js';
import { CliError, EXIT } from '../../src-main/cli/exit-codes.js';
import { makeDataDir, startTestBackend, ADMIN_KEY, type TestBackend } from '../helpers/backend.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { allStoredText } from '../helpers/backend.js';

const NO_ENV = {};

async function refusal(p: Promise<unknown>): Promise<CliError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  return err as CliError;
}

describe('--api-url / --api-key and the environment', () => {
  let tb: TestBackend;
  beforeAll(async () => (tb = await startTestBackend()));
  afterAll(() => tb.destroy());

  it('uses the flags first, over the environment', async () => {
    const target = await resolveTarget(
      { apiUrl: tb.urls.api_url, apiKey: ADMIN_KEY },
      { COUNTERSIGN_API_URL: 'http://127.0.0.1:1', COUNTERSIGN_API_KEY: 'nope' },
    );
    expect(target.source).toBe('flags');
    expect(target.apiUrl).toBe(tb.urls.api_url);
    const list = await target.call('GET', '/v2/webhooks');
    expect(list).toMatchObject({ data: [] });
  });

  it('uses COUNTERSIGN_API_URL and COUNTERSIGN_API_KEY when no flag is given', async () => {
    const target = await resolveTarget({}, { COUNTERSIGN_API_URL: tb.urls.api_url + '/', COUNTERSIGN_API_KEY: ADMIN_KEY });
    expect(target.source).toBe('environment');
    expect(target.apiUrl).toBe(tb.urls.api_url);
    expect((await target.request('GET', '/v2/webhooks')).status).toBe(200);
  });

  it('turns an error answer into a CliError with the service message; a refused key is exit 3', async () => {
    const target = await resolveTarget({ apiUrl: tb.urls.api_url, apiKey: 'cs_wrong' }, NO_ENV);
    const err = await refusal(target.call('GET', '/v2/webhooks'));
    expect(err.exitCode).toBe(EXIT.unavailable);
    expect(err.message).toContain('The API key is not valid.');
  });

  it('refuses a half-given target and a URL that is not one, as usage (exit 2)', async () => {
    expect((await refusal(resolveTarget({ apiKey: 'k' }, NO_ENV))).exitCode).toBe(EXIT.usage);
    const noKey = await refusal(resolveTarget({ apiUrl: tb.urls.api_url }, NO_ENV));
    expect(noKey.exitCode).toBe(EXIT.usage);
    expect(noKey.message).toContain('--api-key');
    expect((await refusal(resolveTarget({ apiUrl: 'not a url', apiKey: 'k' }, NO_ENV))).exitCode).toBe(EXIT.usage);
    expect((await refusal(resolveTarget({ apiUrl: 'ftp://127.0.0.1', apiKey: 'k' }, NO_ENV))).exitCode).toBe(EXIT.usage);
  });

  it('says a service that is not there is unavailable (exit 3)', async () => {
    const target = await resolveTarget({ apiUrl: 'http://127.0.0.1:9', apiKey: 'k' }, NO_ENV);
    const err = await refusal(target.call('GET', '/v2/webhooks'));
    expect(err.exitCode).toBe(EXIT.unavailable);
    expect(err.message).toMatch(/cannot reach Countersign at http:\/\/127\.0\.0\.1:9/);
  });
});

describe('a running local instance (the built headless entry)', () => {
  let h: Headless;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await makeDataDir();
    h = await startHeadless({ dataDir });
  });
  afterAll(async () => {
    if (h.child.exitCode === null) await h.stop();
  });

  it('writes instance.json and a 0600 CLI token that is not the admin key; the admin key is nowhere on disk', async () => {
    const card = JSON.parse(await readFile(join(dataDir, 'instance.json'), 'utf8'));
    expect(card).toMatchObject({
      api_url: h.urls.api_url,
      receiver_url: h.urls.receiver_url,
      pid: h.child.pid,
      cli_token_file: 'cli-token',
    });
    const info = await stat(join(dataDir, 'cli-token'));
    expect(info.mode & 0o777).toBe(0o600);
    const token = (await readFile(join(dataDir, 'cli-token'), 'utf8')).trim();
    expect(token).toMatch(/^cs_/);
    expect(token).not.toBe(h.adminKey);
    expect(await allStoredText(dataDir)).not.toContain(h.adminKey);
    // No temporary file left behind by the private writes.
    expect((await readdir(dataDir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('is found through --data-dir (or COUNTERSIGN_DATA_DIR) and answers with the token', async () => {
    const viaFlag = await resolveTarget({ dataDir }, NO_ENV);
    expect(viaFlag.source).toBe('instance');
    expect(viaFlag.apiUrl).toBe(h.urls.api_url);
    expect(viaFlag.receiverUrl).toBe(h.urls.receiver_url);
    expect((await viaFlag.request('GET', '/v2/webhooks')).status).toBe(200);
    const viaEnv = await resolveTarget({}, { COUNTERSIGN_DATA_DIR: dataDir });
    expect(viaEnv.source).toBe('instance');
  });

  it('refuses a token file others can read (exit 3), saying how to fix it', async () => {
    const path = join(dataDir, 'cli-token');
    await chmod(path, 0o644);
    try {
      const err = await refusal(resolveTarget({ dataDir }, NO_ENV));
      expect(err.exitCode).toBe(EXIT.unavailable);
      expect(err.message).toContain('chmod 600');
    } finally {
      await chmod(path, 0o600);
    }
  });

  it('removes both files when it stops, and revokes the token', async () => {
    const token = (await readFile(join(dataDir, 'cli-token'), 'utf8')).trim();
    expect(await h.stop()).toBe(0);
    expect(existsSync(join(dataDir, 'instance.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'cli-token'))).toBe(false);
    // The next run on the same data does not take the old token.
    const next = await startHeadless({ dataDir });
    try {
      expect((await next.api('GET', '/v2/webhooks')).status).toBe(200);
      const old = await fetch(`${next.urls.api_url}/v2/webhooks`, { headers: { 'x-api-key': token } });
      expect(old.status).toBe(401);
      const fresh = (await readFile(join(dataDir, 'cli-token'), 'utf8')).trim();
      expect(fresh).not.toBe(token);
    } finally {
      await next.stop();
    }
  });
});

describe('no service given and none running', () => {
  it('skips a stale card (its process is gone) and starts a temporary service, removed on close', async () => {
    const dir = await makeDataDir();
    await mkdir(dir, { recursive: true });
    const card = {
      api_url: 'http://127.0.0.1:9',
      app_url: 'x',
      receiver_url: 'http://127.0.0.1:9',
      pid: 2 ** 22 + 7,
      cli_token_file: 'cli-token',
    };
    await writeFile(join(dir, 'instance.json'), JSON.stringify(card));
    await writeFile(join(dir, 'cli-token'), 'cs_stale\n', { mode: 0o600 });
    const target = await resolveTarget({ dataDir: dir }, NO_ENV);
    try {
      expect(target.source).toBe('temporary');
      expect(target.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(target.apiUrl).not.toBe('http://127.0.0.1:9');
      expect(target.receiverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const made = await target.call('POST', '/v2/webhooks', { url: 'http://127.0.0.1:5/hook', type: 'all' });
      expect((made as { secret_key: string }).secret_key).toMatch(/^whsec_/);
    } finally {
      await target.close();
    }
    await expect(fetch(`${target.apiUrl}/v2/webhooks`)).rejects.toThrow();
  });
});
