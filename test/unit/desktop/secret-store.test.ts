// The secret store against a real file in a temp folder. Electron's safeStorage cannot
// run without Electron's binary, so the encryptor is a stand-in with the same interface
// (test/helpers/aes-encryptor.ts): real AES-256-GCM under a random key (so "nothing in
// plain text on disk" is really checked), plus switches for "no encryption" and the
// Linux backend name.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeSecretStorage, SecretStore } from '../../../src-main/desktop/secret-store.js';
import { aesEncryptor } from '../../helpers/aes-encryptor.js';

describe('describeSecretStorage', () => {
  it("says plainly that Linux's basic_text is no keychain", () => {
    const info = describeSecretStorage(aesEncryptor('basic_text'), 'linux');
    expect(info).toMatchObject({ available: true, backend: 'basic_text', protectedByKeychain: false });
    expect(info.note).toMatch(/No OS keychain/);
    expect(info.note).toMatch(/NOT protected/);
  });
  it('reports a real Linux keychain, macOS Keychain and Windows DPAPI as protected', () => {
    expect(describeSecretStorage(aesEncryptor('gnome_libsecret'), 'linux')).toMatchObject({
      protectedByKeychain: true,
      backend: 'gnome_libsecret',
    });
    expect(describeSecretStorage(aesEncryptor('kwallet6'), 'linux')).toMatchObject({ protectedByKeychain: true });
    expect(describeSecretStorage(aesEncryptor(), 'darwin')).toMatchObject({ protectedByKeychain: true, backend: 'keychain' });
    expect(describeSecretStorage(aesEncryptor(), 'win32')).toMatchObject({ protectedByKeychain: true, backend: 'dpapi' });
  });
  it('treats an unknown Linux backend as unprotected and no encryption as unavailable', () => {
    expect(describeSecretStorage(aesEncryptor('unknown'), 'linux')).toMatchObject({ protectedByKeychain: false });
    expect(describeSecretStorage(aesEncryptor('gnome_libsecret', false), 'linux')).toMatchObject({
      available: false,
      protectedByKeychain: false,
    });
  });
});

describe('SecretStore', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'countersign-secrets-'));
    file = join(dir, 'secrets.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps a secret encrypted on disk and gives it back', async () => {
    const enc = aesEncryptor();
    const store = new SecretStore(file, enc, 'linux');
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const info = await store.set('webhook:wh_abc', secret);
    expect(info.protectedByKeychain).toBe(true);
    const onDisk = await readFile(file, 'utf8');
    expect(onDisk).not.toContain(secret);
    expect(onDisk).not.toContain('MfKQ9r8GKYqrTwjUPD8I');
    expect(await store.get('webhook:wh_abc')).toBe(secret);
    // A fresh store (next launch) reads the file.
    expect(await new SecretStore(file, enc, 'linux').get('webhook:wh_abc')).toBe(secret);
  });

  it('deletes, and reports whether there was something to delete', async () => {
    const store = new SecretStore(file, aesEncryptor(), 'linux');
    await store.set('ngrok_authtoken', 'tok');
    expect(await store.delete('ngrok_authtoken')).toBe(true);
    expect(await store.delete('ngrok_authtoken')).toBe(false);
    expect(await store.get('ngrok_authtoken')).toBeNull();
  });

  it('saves nothing when the OS offers no encryption', async () => {
    const store = new SecretStore(file, aesEncryptor('gnome_libsecret', false), 'linux');
    await expect(store.set('ngrok_authtoken', 'tok')).rejects.toThrow(/not saved/);
    await expect(readFile(file)).rejects.toThrow();
  });

  it('stores under basic_text but says it is not protected', async () => {
    const info = await new SecretStore(file, aesEncryptor('basic_text'), 'linux').set('ngrok_authtoken', 'tok');
    expect(info.protectedByKeychain).toBe(false);
  });

  it('refuses bad names and values', async () => {
    const store = new SecretStore(file, aesEncryptor(), 'linux');
    for (const name of ['', 'a/b', '../x', 'a b', 'x'.repeat(101), 42, null]) {
      await expect(store.set(name, 'v'), String(name)).rejects.toThrow(/secret name/);
    }
    await expect(store.set('ok', '')).rejects.toThrow(/secret value/);
    await expect(store.set('ok', 'x'.repeat(8193))).rejects.toThrow(/secret value/);
    await expect(store.set('ok', 7)).rejects.toThrow(/secret value/);
  });

  it('keeps "__proto__" as plain data', async () => {
    const store = new SecretStore(file, aesEncryptor(), 'linux');
    await store.set('__proto__', 'p');
    await store.set('constructor', 'c');
    expect(await store.get('__proto__')).toBe('p');
    expect(await store.get('toString')).toBeNull();
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it('returns null for a value it can no longer decrypt (keychain key changed)', async () => {
    await new SecretStore(file, aesEncryptor(), 'linux').set('ngrok_authtoken', 'tok');
    expect(await new SecretStore(file, aesEncryptor(), 'linux').get('ngrok_authtoken')).toBeNull();
  });

  it('starts empty from a corrupt file, and writes a good one on the next change', async () => {
    await writeFile(file, '{"version":1,"secrets":{"a":');
    const store = new SecretStore(file, aesEncryptor(), 'linux');
    expect(await store.get('a')).toBeNull();
    await store.set('b', 'v');
    expect(JSON.parse(await readFile(file, 'utf8')).secrets).toHaveProperty('b');
  });

  it('serialises concurrent changes (none lost)', async () => {
    const enc = aesEncryptor();
    const store = new SecretStore(file, enc, 'linux');
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, `v${i}`)));
    const fresh = new SecretStore(file, enc, 'linux');
    for (let i = 0; i < 20; i++) expect(await fresh.get(`k${i}`)).toBe(`v${i}`);
  });
});
