// Where connection keys live. Guards against a remote service's API key lying in plain
// text in the data directory, and against the page ever holding it:
// - on the desktop, a key typed into the console goes to the OS keychain through a
//   `ConnectionKeyring` the Electron entry passes in (its own encrypted file, separate
//   from the secrets the page may read over IPC, so no bridge call can return it);
// - headless, there is no keychain: the user names an environment variable of the
//   Countersign process, or a file, and only that name is stored.
// This module imports no Electron.
import { readFile } from 'node:fs/promises';
import { ApiError } from '../errors.js';
import type { ConnectionRecord } from './types.js';

/** The OS keychain, as the desktop provides it. Absent in headless mode. */
export interface ConnectionKeyring {
  /** True when keys can be encrypted with the OS keychain now. */
  available(): boolean;
  /** One sentence about where keys go (e.g. the keychain in use, or why none is). */
  note(): string;
  get(connectionId: string): Promise<string | null>;
  set(connectionId: string, key: string): Promise<void>;
  delete(connectionId: string): Promise<void>;
}

export type Env = Record<string, string | undefined>;

export const HEADLESS_KEY_NOTE =
  'No OS keychain here (headless): name an environment variable of the Countersign process, or a file, that holds the key.';

/** Longest key accepted from any source (remote keys are short; this only bounds a wrong file). */
export const MAX_KEY_LENGTH = 4096;

const missing = (message: string) => new ApiError('connection_key_missing', message);

/** The first line of a key file, trimmed; null when the file cannot be read or holds nothing. */
export async function keyFromFile(path: string): Promise<string | null> {
  let text: string;
  try {
    const buf = await readFile(path);
    if (buf.length > MAX_KEY_LENGTH * 2) return null;
    text = buf.toString('utf8');
  } catch {
    return null;
  }
  const first = text.split(/\r?\n/, 1)[0].trim();
  return first === '' ? null : first;
}

/** The key of a connection, read from its source now (so a rotated env file or keychain entry is used at once). */
export async function resolveKey(rec: ConnectionRecord, env: Env, keyring: ConnectionKeyring | undefined): Promise<string> {
  switch (rec.key_source) {
    case 'keychain': {
      const key = keyring?.available() ? await keyring.get(rec.id) : null;
      if (!key) throw missing(`The key of "${rec.name}" is not in the OS keychain any more. Delete the connection and add it again.`);
      return key;
    }
    case 'env': {
      const key = env[rec.key_ref ?? '']?.trim();
      if (!key)
        throw missing(`The environment variable ${rec.key_ref} that holds the key of "${rec.name}" is not set for this Countersign.`);
      return key;
    }
    case 'file': {
      const key = await keyFromFile(rec.key_ref ?? '');
      if (!key) throw missing(`The file ${rec.key_ref} that holds the key of "${rec.name}" cannot be read or is empty.`);
      return key;
    }
  }
}

/** Checks a named source holds a key before the connection is saved; the field's message, or null when it does. */
export async function checkNamedSource(kind: 'env' | 'file', ref: string, env: Env): Promise<string | null> {
  if (kind === 'env') return env[ref]?.trim() ? null : `the environment variable ${ref} is not set for this Countersign process`;
  return (await keyFromFile(ref)) ? null : `the file ${ref} cannot be read or is empty`;
}
