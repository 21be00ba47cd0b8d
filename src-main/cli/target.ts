// Which Countersign service a command talks to (docs/cli.md, "Which service a command
// talks to"), in this order:
//   1. --api-url and --api-key;
//   2. COUNTERSIGN_API_URL and COUNTERSIGN_API_KEY;
//   3. a running local instance, found by the instance.json it writes in its data
//      directory (--data-dir / COUNTERSIGN_DATA_DIR, else ./.data, else the desktop
//      app's), authenticated by that run's CLI token (a 0600 file beside it);
//   4. else a temporary service started in this process on free loopback ports, with a
//      temporary data directory that goes when the command ends.
// Guards against: a token file others can read being used silently (refused, with how
// to fix it); an instance file pointing anywhere but loopback; a stale card (its
// process gone, or no longer answering) hiding the fallback.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../backend/config.js';
import { createBackend, type Backend } from '../backend/index.js';
import { CliError, EXIT, unavailable, usageError } from './exit-codes.js';
import { findInstance, instanceDirs } from './instance.js';

export type TargetSource = 'flags' | 'environment' | 'instance' | 'temporary' | 'connection';

export interface ApiAnswer {
  status: number;
  /** Parsed JSON, or undefined when the answer was not JSON. */
  body: unknown;
}

export interface Target {
  source: TargetSource;
  apiUrl: string;
  apiKey: string;
  /** The receiver's URL when known (a local instance or the temporary one). */
  receiverUrl: string | null;
  /** One line for a person: which service this is. */
  description: string;
  /** One API call; any HTTP status is an answer. A network failure is exit 3. */
  request(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<ApiAnswer>;
  /** One API call that must succeed (2xx); an error answer becomes a CliError with its message. */
  call<T = unknown>(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<T>;
  /** Stops the temporary service and removes its data (a no-op for the others). */
  close(): Promise<void>;
}

export interface TargetOptions {
  apiUrl?: string;
  apiKey?: string;
  dataDir?: string;
}

type Env = Record<string, string | undefined>;

/** Adds --api-url, --api-key and --data-dir to a command that reaches a service. */
export function withTargetOptions(cmd: Command): Command {
  return cmd
    .option('--api-url <url>', 'the Countersign API to use (or COUNTERSIGN_API_URL); default: a running local instance')
    .option('--api-key <key>', 'an admin API key for --api-url (or COUNTERSIGN_API_KEY)')
    .option('--data-dir <dir>', 'where to look for a running local instance (or COUNTERSIGN_DATA_DIR; default ./.data)');
}

function parseUrl(raw: string, from: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`${from} must be a URL such as http://127.0.0.1:4010 (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`${from} must be an http:// or https:// URL (got "${raw}")`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export function explicitTarget(opts: TargetOptions, env: Env): { url: string; key: string; source: TargetSource } | null {
  const url = opts.apiUrl ?? env.COUNTERSIGN_API_URL;
  const key = opts.apiKey ?? env.COUNTERSIGN_API_KEY;
  if (url === undefined || url === '') {
    if (opts.apiKey !== undefined) throw usageError('--api-key needs --api-url (or COUNTERSIGN_API_URL)');
    return null;
  }
  const from = opts.apiUrl !== undefined ? '--api-url' : 'COUNTERSIGN_API_URL';
  if (!key) throw usageError(`${from} needs an API key: --api-key or COUNTERSIGN_API_KEY`);
  return { url: parseUrl(url, from), key, source: opts.apiUrl !== undefined || opts.apiKey !== undefined ? 'flags' : 'environment' };
}

/** Finds the service to use (see the top of this file). The caller must close() it. */
export async function resolveTarget(opts: TargetOptions, env: Env = process.env): Promise<Target> {
  const explicit = explicitTarget(opts, env);
  if (explicit) return httpTarget(explicit.source, explicit.url, explicit.key, null, `Countersign at ${explicit.url}`);
  const found = await findInstance(instanceDirs(opts.dataDir ?? env.COUNTERSIGN_DATA_DIR, env), (url, key) => probe(url, key));
  if (found) {
    const { card, token, dir } = found;
    return httpTarget('instance', card.api_url, token, card.receiver_url, `the local instance at ${card.api_url} (data in ${dir})`);
  }
  return startTemporary(env);
}

/**
 * Step 3 alone: the running local instance, or exit 3 saying why one is needed. For
 * commands that need this machine's Countersign itself (its receiver, its connections),
 * where a temporary one or --api-url would not do.
 */
export async function resolveLocalInstance(opts: TargetOptions, why: string, env: Env = process.env): Promise<Target> {
  const dirs = instanceDirs(opts.dataDir ?? env.COUNTERSIGN_DATA_DIR, env);
  const found = await findInstance(dirs, (url, key) => probe(url, key));
  if (!found)
    throw unavailable(
      `${why} needs a running Countersign on this machine, and none answers (looked in ${dirs.join(', ')}). Start one (npm start, or node out/main/headless.js) or name its data directory with --data-dir.`,
    );
  const { card, token, dir } = found;
  return httpTarget('instance', card.api_url, token, card.receiver_url, `the local instance at ${card.api_url} (data in ${dir})`);
}

/** Is a service answering at `url` that takes `key`? */
async function probe(url: string, key: string): Promise<'ok' | 'unreachable' | 'refused_key'> {
  try {
    const res = await fetch(`${url}/v2/webhooks?limit=1`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(3000) });
    await res.arrayBuffer();
    return res.status === 401 ? 'refused_key' : res.ok ? 'ok' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

async function startTemporary(env: Env): Promise<Target> {
  const dir = await mkdtemp(join(tmpdir(), 'countersign-cli-'));
  const key = `cs_cli_${randomBytes(24).toString('base64url')}`;
  let backend: Backend;
  try {
    const config = loadConfig(['--port', '0', '--receiver-port', '0', '--data-dir', dir], { ...env, COUNTERSIGN_ADMIN_KEY: key });
    backend = createBackend(config, { tunnelAutostart: false });
    await backend.start();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw unavailable(`could not start a temporary Countersign: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { api_url, receiver_url } = backend.addresses();
  const target = httpTarget('temporary', api_url, key, receiver_url, `a temporary Countersign at ${api_url} (gone when this command ends)`);
  let closing: Promise<void> | undefined;
  target.close = () => (closing ??= backend.stop().finally(() => rm(dir, { recursive: true, force: true })));
  return target;
}

export function httpTarget(source: TargetSource, apiUrl: string, apiKey: string, receiverUrl: string | null, description: string): Target {
  const request = async (method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { 'x-api-key': apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(apiUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw unavailable(`cannot reach ${description}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed };
  };
  return {
    source,
    apiUrl,
    apiKey,
    receiverUrl,
    description,
    request,
    async call(method, path, body, timeoutMs) {
      const answer = await request(method, path, body, timeoutMs);
      if (answer.status >= 200 && answer.status < 300) return answer.body as never;
      throw apiFailure(answer, `${method} ${path}`);
    },
    close: async () => undefined,
  };
}

/** An error answer as a CliError: a refused key is "unavailable" (3), anything else "failed" (1). */
export function apiFailure(answer: ApiAnswer, what: string): CliError {
  type Fields = { fields?: { field?: string; message?: string }[] };
  const err = (answer.body as { error?: { code?: string; message?: string; details?: Fields } } | undefined)?.error;
  // A 422 names its fields: say which and why, not only "validation failed".
  const fields = (err?.details?.fields ?? []).map((f) => `${f.field}: ${f.message}`).join('; ');
  const message = `${what}: ${answer.status} ${err?.message ?? 'no error message'}${fields ? ` (${fields})` : ''}`;
  const code = answer.status === 401 || answer.status === 403 ? EXIT.unavailable : EXIT.failed;
  return new CliError(message, code, err?.code ?? 'api_error');
}
