// The running instance's card, for the `countersign` command (docs/cli.md, "Which
// service a command talks to"): `instance.json` in the data directory says where this
// run listens (API, console, receiver) and which process it is; `cli-token` beside it
// holds a key for this run only, readable by the user alone (0600).
// Guards against: the admin key (COUNTERSIGN_ADMIN_KEY) ever being written to disk (the
// token is a separate key, minted at start, revoked at stop, and the store keeps only
// its hash); another user reading the token (the file is created 0600 and renamed into
// place, so it is never readable in between); a second instance's stop removing the
// files of the one that now owns them (each removal checks the pid first).
import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const INSTANCE_FILE = 'instance.json';
export const CLI_TOKEN_FILE = 'cli-token';

/** What instance.json holds. */
export interface InstanceCard {
  api_url: string;
  app_url: string;
  receiver_url: string;
  /** The process serving it: a card whose process is gone is stale. */
  pid: number;
  /** The token file's name, in the same folder. */
  cli_token_file: string;
}

/** Writes `text` to `path` through a private temporary file, so readers see all or nothing. */
async function writePrivate(path: string, text: string): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
  await rename(tmp, path);
}

export async function writeInstanceFiles(dataDir: string, card: Omit<InstanceCard, 'cli_token_file'>, token: string): Promise<void> {
  await writePrivate(join(dataDir, CLI_TOKEN_FILE), token + '\n');
  const full: InstanceCard = { ...card, cli_token_file: CLI_TOKEN_FILE };
  await writePrivate(join(dataDir, INSTANCE_FILE), JSON.stringify(full, null, 2) + '\n');
}

/** Removes the card and the token, if they are still this process's. */
export async function removeInstanceFiles(dataDir: string, pid: number): Promise<void> {
  const path = join(dataDir, INSTANCE_FILE);
  const text = await readFile(path, 'utf8').catch(() => '');
  let owner: unknown;
  try {
    owner = (JSON.parse(text) as { pid?: unknown }).pid;
  } catch {
    owner = undefined;
  }
  if (owner !== pid) return;
  await unlink(join(dataDir, CLI_TOKEN_FILE)).catch(() => undefined);
  await unlink(path).catch(() => undefined);
}
