// A stand-in for Electron's safeStorage, which cannot run without Electron's binary:
// the same Encryptor interface, but real AES-256-GCM under a random key, so checks such
// as "nothing in plain text on disk" are really made. `backend` is the storage backend
// name it reports (Linux: basic_text means no keychain); `available` switches
// encryption off.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Encryptor } from '../../src-main/desktop/secret-store.js';

export function aesEncryptor(backend = 'gnome_libsecret', available = true): Encryptor {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decryptString(buf) {
      const d = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
  };
}
