// Connection keys in the OS keychain: the same SecretStore (safeStorage's encryption)
// as the app's other secrets, but its own file, connection-keys.json. Guards against the
// page reading a remote's API key: the IPC bridge's getSecret reads secrets.json only,
// so no bridge call can return a connection key; only the backend asks for it, to call
// the remote. A keychain Chromium calls 'basic_text' (no real keychain) is not used:
// the note says so and the console offers the environment or a file instead.
import type { ConnectionKeyring } from '../backend/connections/keyring.js';
import { SecretStore, type Encryptor } from './secret-store.js';

export function connectionKeyring(file: string, enc: Encryptor, platform: string = process.platform): ConnectionKeyring {
  const store = new SecretStore(file, enc, platform);
  const name = (id: string) => `connection:${id}`;
  return {
    available: () => store.info().protectedByKeychain,
    note: () => store.info().note,
    get: (id) => store.get(name(id)),
    set: async (id, key) => {
      await store.set(name(id), key);
    },
    delete: async (id) => {
      await store.delete(name(id));
    },
  };
}
