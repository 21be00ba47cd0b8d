// Webhook secrets and the ngrok authtoken, encrypted with Electron's safeStorage (the
// OS keychain's key) and kept in one file in the user-data folder. Guards against
// secrets lying in plain text on disk, and against pretending otherwise: when Linux has
// no keychain, Chromium falls back to 'basic_text' (a fixed, well-known key), and that
// is reported plainly; when nothing can encrypt at all, nothing is saved.
// The encryptor is passed in (safeStorage in the app); this module imports no Electron.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { IPC_LIMITS, SECRET_NAME_PATTERN, type SecretStorageInfo } from '@shared/ipc-contract.js';

/** The part of Electron's safeStorage used here. */
export interface Encryptor {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

const REAL_LINUX_KEYCHAINS = new Set(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);

export function describeSecretStorage(enc: Encryptor, platform: string): SecretStorageInfo {
  const available = enc.isEncryptionAvailable();
  const backend =
    platform === 'linux'
      ? (enc.getSelectedStorageBackend?.() ?? 'unknown')
      : platform === 'darwin'
        ? 'keychain'
        : platform === 'win32'
          ? 'dpapi'
          : 'unknown';
  if (!available) {
    return {
      available,
      backend,
      protectedByKeychain: false,
      note: 'The OS offers no encryption to this app: secrets are not saved by the desktop.',
    };
  }
  if (platform === 'linux' && !REAL_LINUX_KEYCHAINS.has(backend)) {
    return {
      available,
      backend,
      protectedByKeychain: false,
      note:
        backend === 'basic_text'
          ? "No OS keychain found (Chromium's 'basic_text' fallback): secrets are stored with a fixed key, hidden from a casual look but NOT protected."
          : `The keychain in use could not be identified ('${backend}'): treat stored secrets as not protected.`,
    };
  }
  return { available, backend, protectedByKeychain: true, note: `Secrets are encrypted with the OS keychain (${backend}).` };
}

export class SecretError extends Error {
  override name = 'SecretError';
}

export function checkSecretName(name: unknown): string {
  if (typeof name !== 'string' || !SECRET_NAME_PATTERN.test(name)) {
    throw new SecretError('a secret name is 1 to 100 letters, digits, "_", ".", ":" or "-"');
  }
  return name;
}

interface SecretFile {
  version: 1;
  /** name → base64 of the encrypted bytes. */
  secrets: Record<string, string>;
}

export class SecretStore {
  /** A Map, so that a name such as "__proto__" is plain data. */
  private cache: Map<string, string> | null = null;
  /** One writer: every change waits for the previous one. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly enc: Encryptor,
    private readonly platform: string = process.platform,
  ) {}

  info(): SecretStorageInfo {
    return describeSecretStorage(this.enc, this.platform);
  }

  async set(name: unknown, value: unknown): Promise<SecretStorageInfo> {
    const key = checkSecretName(name);
    if (typeof value !== 'string' || value.length === 0 || value.length > IPC_LIMITS.secretValueLength) {
      throw new SecretError(`a secret value is a string of 1 to ${IPC_LIMITS.secretValueLength} characters`);
    }
    const info = this.info();
    if (!info.available) throw new SecretError(info.note);
    const encrypted = this.enc.encryptString(value).toString('base64');
    await this.change((map) => map.set(key, encrypted));
    return info;
  }

  async get(name: unknown): Promise<string | null> {
    const key = checkSecretName(name);
    const encrypted = (await this.load()).get(key);
    if (encrypted === undefined || !this.enc.isEncryptionAvailable()) return null;
    try {
      return this.enc.decryptString(Buffer.from(encrypted, 'base64'));
    } catch {
      // Encrypted under another keychain key (profile moved, keychain reset): gone.
      return null;
    }
  }

  async delete(name: unknown): Promise<boolean> {
    const key = checkSecretName(name);
    let deleted = false;
    await this.change((map) => {
      deleted = map.delete(key);
    });
    return deleted;
  }

  private async load(): Promise<Map<string, string>> {
    if (this.cache) return this.cache;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.file, 'utf8'));
    } catch {
      parsed = null;
    }
    const map = new Map<string, string>();
    const secrets = (parsed as Partial<SecretFile> | null)?.secrets;
    if (secrets && typeof secrets === 'object') {
      for (const [k, v] of Object.entries(secrets)) {
        if (SECRET_NAME_PATTERN.test(k) && typeof v === 'string') map.set(k, v);
      }
    }
    this.cache = map;
    return map;
  }

  private change(apply: (map: Map<string, string>) => void): Promise<void> {
    const run = this.queue.then(async () => {
      // Changed on a copy: if the write fails, memory still matches the file.
      const next = new Map(await this.load());
      apply(next);
      const data: SecretFile = { version: 1, secrets: Object.fromEntries(next) };
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(data) + '\n', { mode: 0o600 });
      await rename(tmp, this.file);
      this.cache = next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
