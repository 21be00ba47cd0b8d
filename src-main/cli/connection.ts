// `--connection <name>`: a remote deployment the console is connected to
// (docs/connections.md), used by the command line as if given by --api-url/--api-key.
// The local instance says where the connection is and where its key is kept
// (GET /v2/test_helpers/connections: a variable's name, a file's path, or "keychain"),
// never the key; this process reads the key itself. Guards against: a key ever crossing
// the local API (it does not: the command reads it from its own environment or the
// file); a keychain-kept key being "found" some other way (refused, with what to do); an
// unknown name failing silently (the known names are listed); a remote that is down or
// refuses the key being found only halfway through (it is asked once before anything is
// made).
import { keyFromFile } from '../backend/connections/keyring.js';
import type { Connection } from '@shared/connection-types.js';
import { unavailable, usageError } from './exit-codes.js';
import { apiFailure, httpTarget, type Target } from './target.js';

type Env = Record<string, string | undefined>;

/** The connection named `name` (any case), from the local instance; exit 2 listing the names when there is none. */
export async function findConnection(local: Target, name: string): Promise<Connection> {
  const { data } = await local.call<{ data: Connection[] }>('GET', '/v2/test_helpers/connections');
  const found = data.find((c) => c.name.toLowerCase() === name.trim().toLowerCase());
  if (found) return found;
  const known = data.length ? `the connections are: ${data.map((c) => `"${c.name}"`).join(', ')}` : 'there are none yet';
  throw usageError(
    `--connection: no connection is named "${name}" in ${local.description}; ${known} (add one in the console: Settings → Connections).`,
  );
}

/** The connection's key, read here from where the connection says it is kept. */
export async function readConnectionKey(c: Connection, env: Env): Promise<string> {
  switch (c.key_source) {
    case 'keychain':
      throw usageError(
        `the key of "${c.name}" is kept in the desktop app's OS keychain, which only the app can read. ` +
          'Give the connection its key through an environment variable or a key file instead (Settings → Connections: delete it and add it again), ' +
          'or pass the service and its key directly: --api-url <url> --api-key <key>.',
      );
    case 'env': {
      const key = env[c.key_ref ?? '']?.trim();
      if (!key)
        throw usageError(
          `the key of "${c.name}" is in the environment variable ${c.key_ref}, which is not set for this command: run it as ${c.key_ref}=… countersign …`,
        );
      return key;
    }
    case 'file': {
      const key = await keyFromFile(c.key_ref ?? '');
      if (!key) throw usageError(`the key of "${c.name}" is in the file ${c.key_ref}, which this command cannot read or which is empty.`);
      return key;
    }
  }
}

/** The remote as a Target, after one call that proves it answers and takes the key (exit 3 when not). */
export async function connectionTarget(local: Target, name: string, env: Env = process.env): Promise<Target> {
  const c = await findConnection(local, name);
  const key = await readConnectionKey(c, env);
  const where = c.key_source === 'env' ? `the environment variable ${c.key_ref}` : `the file ${c.key_ref}`;
  const remote = httpTarget('connection', c.base_url, key, null, `the connection "${c.name}" at ${c.base_url}`);
  const answer = await remote.request('GET', '/v2/webhooks?limit=1', undefined, 15_000);
  if (answer.status === 401 || answer.status === 403)
    throw unavailable(
      `${remote.description} refused the key from ${where} (${answer.status}); check that it is an admin key of that service.`,
    );
  if (answer.status < 200 || answer.status >= 300) throw apiFailure(answer, `${remote.description}: GET /v2/webhooks`);
  return remote;
}
