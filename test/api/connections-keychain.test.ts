// The desktop's key path: a key typed into the console goes to the OS keychain. Electron's
// safeStorage cannot run without Electron's binary, so the keychain here is the desktop's
// own connectionKeyring over the real SecretStore with the AES stand-in encryptor
// (test/helpers/aes-encryptor.ts): the same files and code, a stand-in key. The real
// safeStorage is exercised only where the desktop runs (test/e2e/electron.test.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allStoredText, makeDataDir, startTestBackend, ADMIN_KEY, type TestBackend } from '../helpers/backend.js';
import { aesEncryptor } from '../helpers/aes-encryptor.js';
import { connectionKeyring } from '../../src-main/desktop/connection-keyring.js';
import { SecretStore } from '../../src-main/desktop/secret-store.js';

let remote: TestBackend;
let local: TestBackend;
let keysFile: string;
let secretsDir: string;
const enc = aesEncryptor('gnome_libsecret');

beforeAll(async () => {
  remote = await startTestBackend();
  secretsDir = await makeDataDir();
  keysFile = join(secretsDir, 'connection-keys.json');
  local = await startTestBackend({}, undefined, { env: {}, keyring: connectionKeyring(keysFile, enc, 'linux') });
});
afterAll(async () => {
  await local?.destroy();
  await remote?.destroy();
});

describe('connections with the OS keychain', () => {
  it('keeps a typed key in the keychain file, encrypted, and nowhere else', async () => {
    const list = await local.consoleApi('GET', '/connections');
    expect(list.body.key_storage).toEqual({ keychain: true, note: expect.stringMatching(/OS keychain \(gnome_libsecret\)/) });
    const made = await local.consoleApi('POST', '/connections', {
      name: 'Production',
      base_url: remote.urls.api_url,
      app_url: 'https://app.example.com',
      api_key: ADMIN_KEY,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ key_source: 'keychain', key_ref: null });
    expect(made.text).not.toContain(ADMIN_KEY);
    const file = await readFile(keysFile, 'utf8');
    expect(file).toContain(`connection:${made.body.id}`);
    expect(file).not.toContain(ADMIN_KEY);
    await local.backend.store.commit();
    expect(await allStoredText(local.dataDir)).not.toContain(ADMIN_KEY);
    // The page's own secret store (secrets.json, read over IPC) does not hold it either.
    expect(await new SecretStore(join(secretsDir, 'secrets.json'), enc, 'linux').get(`connection:${made.body.id}`)).toBeNull();

    const hooks = await local.consoleApi('GET', `/connections/${made.body.id}/remote/v2/webhooks`);
    expect(hooks.status).toBe(200);

    expect((await local.consoleApi('DELETE', `/connections/${made.body.id}`)).status).toBe(204);
    expect(await connectionKeyring(keysFile, enc, 'linux').get(made.body.id)).toBeNull();
  });

  it("refuses a typed key when Linux has no keychain ('basic_text'), and says why", async () => {
    const noKeychain = await startTestBackend({}, undefined, {
      env: {},
      keyring: connectionKeyring(join(secretsDir, 'other.json'), aesEncryptor('basic_text'), 'linux'),
    });
    try {
      const made = await noKeychain.consoleApi('POST', '/connections', {
        name: 'Production',
        base_url: remote.urls.api_url,
        app_url: 'https://app.example.com',
        api_key: ADMIN_KEY,
      });
      expect(made.status).toBe(422);
      expect(made.body.error.details.fields[0].message).toMatch(/basic_text.*environment variable/s);
    } finally {
      await noKeychain.destroy();
    }
  });
});
