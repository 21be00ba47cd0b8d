// Finding a running local Countersign for the command line: the instance.json and the
// cli-token a headless or desktop run writes in its data directory
// (backend/instance-file.ts). Guards against: using a token file that other users can
// read or that someone else owns (refused, with the fix); a card sending the token
// anywhere but loopback; a stale card (its process gone, or nothing answering) being
// taken for a running instance.
import { lstat, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI_TOKEN_FILE, INSTANCE_FILE, type InstanceCard } from '../backend/instance-file.js';
import { unavailable } from './exit-codes.js';

type Env = Record<string, string | undefined>;

export interface FoundInstance {
  dir: string;
  card: InstanceCard;
  token: string;
}

export type Probe = (apiUrl: string, key: string) => Promise<'ok' | 'unreachable' | 'refused_key'>;

/** Where to look: the given data directory only; else ./.data (headless) and the desktop app's. */
export function instanceDirs(dataDir: string | undefined, env: Env, platform = process.platform): string[] {
  if (dataDir) return [resolve(dataDir)];
  const home = env.HOME ?? homedir();
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  const userData = env.COUNTERSIGN_USER_DATA_DIR ? resolve(env.COUNTERSIGN_USER_DATA_DIR) : join(appData, 'Countersign');
  return [resolve('.data'), join(userData, 'service-data')];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const LOOPBACK_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

function parseCard(text: string): InstanceCard | null {
  let card: Partial<InstanceCard>;
  try {
    card = JSON.parse(text) as Partial<InstanceCard>;
  } catch {
    return null;
  }
  const ok =
    typeof card.api_url === 'string' &&
    LOOPBACK_URL.test(card.api_url) &&
    typeof card.receiver_url === 'string' &&
    typeof card.app_url === 'string' &&
    Number.isInteger(card.pid) &&
    (card.pid as number) > 0;
  return ok ? (card as InstanceCard) : null;
}

/** The token, if its file is private to this user; a readable-by-others file is refused (exit 3). */
async function readToken(dir: string): Promise<string | null> {
  const path = join(dir, CLI_TOKEN_FILE);
  const info = await lstat(path).catch(() => null);
  if (!info) return null;
  const mine = typeof process.getuid !== 'function' || info.uid === process.getuid();
  // Windows has no POSIX modes (the file sits in the user's own profile there).
  const private_ = process.platform === 'win32' || (info.mode & 0o077) === 0;
  if (!info.isFile() || !mine || !private_)
    throw unavailable(`${path} must be a file of yours that only you can read (chmod 600 it, or restart the instance to write a new one)`);
  const token = (await readFile(path, 'utf8')).trim();
  return token || null;
}

/** The first running instance among `dirs`, checked by `probe`; null when there is none. */
export async function findInstance(dirs: string[], probe: Probe): Promise<FoundInstance | null> {
  for (const dir of dirs) {
    const text = await readFile(join(dir, INSTANCE_FILE), 'utf8').catch(() => null);
    if (text === null) continue;
    const card = parseCard(text);
    if (!card || !isAlive(card.pid)) continue;
    const token = await readToken(dir);
    if (!token) continue;
    const state = await probe(card.api_url, token);
    if (state === 'ok') return { dir, card, token };
  }
  return null;
}
