// `countersign listen --connection <name>` as a user runs it: a child process of
// bin/countersign.mjs. Two headless Countersigns (the built entry, real child processes):
// "remote" plays the real deployment, "local" runs on this machine and holds two
// connections to it, one whose key is in an environment variable and one whose key is in
// a file. The command reads the key itself (from its own environment, or the file), makes
// the forwarding inbox on the local receiver and the subscriptions on the remote. Checked
// on the remote's own API: the subscriptions it made, and that Ctrl-C removes them.
// Errors: an unknown name (the known ones listed), a key kept in the desktop keychain
// (an in-process backend with the desktop's keyring over the AES stand-in, since
// Electron's safeStorage cannot run here), the variable missing from the command's
// environment, a key the remote refuses, the remote down, no local instance. And a
// remote that goes away mid-session and comes back on the same port: said once, then
// "answers again", deliveries go on, and Ctrl-C still removes the subscription there.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDir, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { aesEncryptor } from '../helpers/aes-encryptor.js';
import { CLI_BIN, runCountersign } from '../helpers/cli.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { waitUntil } from '../helpers/wait.js';
import { callServiceApi } from '../helpers/http.js';
import { connectionKeyring } from '../../src-main/desktop/connection-keyring.js';

/** The remote's own admin key: only the connection's key source can have given it to the command. */
const REMOTE_KEY = 'cs_remote_listen_admin_key_000000001';
const ENV_NAME = 'LISTEN_REMOTE_KEY';

let remote: Headless;
let local: Headless;
let dataDir: string;
let keyDir: string;
let app: Server;
let appUrl: string;
const hits: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

async function connect(name: string, key: Record<string, string>, base = remote.urls.api_url) {
  const res = await local.consoleApi('POST', '/connections', { name, base_url: base, app_url: remote.urls.app_url, ...key });
  expect(res.status, res.text).toBe(201);
}

/** A loopback port where nothing listens (taken, then let go). */
async function deadPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  keyDir = await mkdtemp(join(tmpdir(), 'countersign-listen-key-'));
  await writeFile(join(keyDir, 'remote.key'), `${REMOTE_KEY}\n`, { mode: 0o600 });
  await writeFile(join(keyDir, 'wrong.key'), 'cs_not_a_key_of_the_remote_0000000\n', { mode: 0o600 });
  remote = await startHeadless({ env: { COUNTERSIGN_ADMIN_KEY: REMOTE_KEY } });
  dataDir = await makeDataDir();
  // The local instance's own environment has the variable (a connection is checked when added).
  local = await startHeadless({ dataDir, env: { [ENV_NAME]: REMOTE_KEY } });
  await connect('Remote by env', { api_key_env: ENV_NAME });
  await connect('Remote by file', { api_key_file: join(keyDir, 'remote.key') });
  await connect('Wrong key', { api_key_file: join(keyDir, 'wrong.key') });
  await connect('Gone', { api_key_file: join(keyDir, 'remote.key') }, `http://127.0.0.1:${await deadPort()}`);
  app = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ url: req.url!, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('app ok');
    });
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
}, 90_000);
afterAll(async () => {
  app?.closeAllConnections();
  await new Promise((r) => app?.close(r));
  await local?.stop();
  await remote?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(keyDir, { recursive: true, force: true });
});

/** Starts `countersign listen` against the local instance's data directory. */
function startListen(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [CLI_BIN, ...args, '--data-dir', dataDir, '--poll-ms', '100'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, lines, exited, stderr: () => stderr };
}

const remoteSubs = async () =>
  (await callServiceApi(remote.urls.api_url, 'GET', '/v2/webhooks', undefined, REMOTE_KEY)).body.data as {
    public_id: string;
    url: string;
    type: string;
  }[];

/** Plays a document on the remote up to `event`, as a script there would (the remote's own test helpers). */
async function triggerOnRemote(event: string) {
  const run = await runCountersign(['--json', 'trigger', event, '--api-url', remote.urls.api_url, '--api-key', REMOTE_KEY]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { document_id: string };
}

describe('countersign listen --connection', () => {
  it('key from the environment: subscribes on the remote, forwards its deliveries, Ctrl-C removes what it made', async () => {
    const before = (await remoteSubs()).map((s) => s.public_id);
    const localBefore = (await local.api('GET', '/v2/webhooks')).body.data.length;
    const listen = startListen(
      ['--json', 'listen', '--connection', 'remote BY env', '--forward-to', appUrl, '--events', 'document.completed'],
      {
        [ENV_NAME]: REMOTE_KEY,
      },
    );
    const ready = await waitUntil(
      'the ready line',
      async () => listen.lines.map((l) => JSON.parse(l)).find((l) => l.type === 'ready'),
      30_000,
    );
    expect(ready).toMatchObject({ connection: 'remote BY env', forward_to: appUrl, events: ['document.completed'] });
    expect(ready.secret).toMatch(/^whsec_/);
    // The remote runs on loopback, so it is subscribed at the local receiver's own URL.
    expect(ready.subscription_url).toBe(`${local.urls.receiver_url}/in/${ready.inbox_id}`);
    const made = (await remoteSubs()).filter((s) => ready.subscriptions.includes(s.public_id));
    expect(made).toEqual([expect.objectContaining({ url: ready.subscription_url, type: 'document.completed' })]);
    expect((await local.api('GET', '/v2/webhooks')).body.data.length).toBe(localBefore);
    expect((await local.consoleApi('GET', `/inboxes/${ready.inbox_id}`)).body.response).toEqual({ mode: 'forward', url: appUrl });

    const doc = await triggerOnRemote('document.completed');
    const line = await waitUntil(
      'a delivery line',
      async () => listen.lines.map((l) => JSON.parse(l)).find((l) => l.type === 'delivery'),
      30_000,
    );
    expect(line).toMatchObject({ event_type: 'document.completed', status: 200, attempt: 1, subscription_id: ready.subscriptions[0] });
    expect(line.webhook_id).toMatch(/^msg_/);
    const atApp = hits.filter((h) => h.headers['webhook-id'] === line.webhook_id);
    expect(atApp).toHaveLength(1);
    const event = new Webhook(ready.secret).verify(atApp[0]!.body, atApp[0]!.headers as Record<string, string>) as any;
    expect(event.data.document.public_id).toBe(doc.document_id);
    expect(listen.lines.filter((l) => l.includes(ready.secret))).toHaveLength(1);
    expect(listen.stderr()).not.toContain(REMOTE_KEY);

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
    const stopped = listen.lines.map((l) => JSON.parse(l)).find((l) => l.type === 'stopped');
    expect(stopped).toMatchObject({ removed: { subscriptions: ready.subscriptions, inbox: ready.inbox_id }, not_removed: [] });
    expect((await remoteSubs()).map((s) => s.public_id).sort()).toEqual(before.sort());
    expect((await local.consoleApi('GET', `/inboxes/${ready.inbox_id}`)).status).toBe(404);
  }, 120_000);

  it('key from a file, human output: the secret once, a line per delivery, then clean-up', async () => {
    const before = (await remoteSubs()).length;
    const listen = startListen(['listen', '--connection', 'Remote by file', '--forward-to', appUrl, '--events', 'document.sent']);
    const ready = await waitUntil('the ready line', async () => listen.lines.find((l) => l.startsWith('Ready:')), 30_000);
    expect(ready).toContain(`the connection "Remote by file" at ${remote.urls.api_url} sends to ${local.urls.receiver_url}/in/inb_`);
    const secret = /whsec_\S+/.exec(ready)![0];
    expect((await remoteSubs()).length).toBe(before + 1);
    await triggerOnRemote('document.sent');
    const line = await waitUntil('a delivery line', async () => listen.lines.find((l) => /^\d{4}-.*document\.sent/.test(l)), 30_000);
    expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}document\.sent +msg_\S+ {2}→ 200 {2}\d+ ms$/);
    expect(listen.stderr()).toContain('Using the connection "Remote by file"');
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
    expect(listen.lines.filter((l) => l.includes(secret))).toHaveLength(1);
    expect(listen.lines.at(-1)).toMatch(/^Stopped: removed subscription wh_\S+ and inbox inb_\S+\.$/);
    expect((await remoteSubs()).length).toBe(before);
  }, 120_000);

  it('refuses what it cannot use, before anything is made', async () => {
    const inboxes = async () => (await local.consoleApi('GET', '/inboxes')).body.data.length;
    const inboxesBefore = await inboxes();
    const subsBefore = (await remoteSubs()).length;
    const run = (name: string, env: Record<string, string> = {}) =>
      runCountersign(['listen', '--data-dir', dataDir, '--forward-to', appUrl, '--connection', name], { env });

    const unknown = await run('Staging');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no connection is named "Staging"');
    expect(unknown.stderr).toContain('"Remote by env", "Remote by file", "Wrong key", "Gone"');

    const noVar = await run('Remote by env');
    expect(noVar.code).toBe(2);
    expect(noVar.stderr).toContain(`environment variable ${ENV_NAME}, which is not set for this command`);

    const refused = await run('Wrong key');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`refused the key from the file ${join(keyDir, 'wrong.key')} (401)`);

    const gone = await run('Gone');
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/cannot reach the connection "Gone" at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);

    const both = await runCountersign([
      'listen',
      '--forward-to',
      appUrl,
      '--connection',
      'Gone',
      '--api-url',
      remote.urls.api_url,
      '--api-key',
      REMOTE_KEY,
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');

    const empty = await makeDataDir();
    const noInstance = await runCountersign(['listen', '--data-dir', empty, '--forward-to', appUrl, '--connection', 'Remote by file']);
    expect(noInstance.code).toBe(3);
    expect(noInstance.stderr).toContain('needs a running Countersign on this machine');
    await rm(empty, { recursive: true, force: true });

    expect(await inboxes()).toBe(inboxesBefore);
    expect((await remoteSubs()).length).toBe(subsBefore);
  }, 120_000);
});

describe('a connection whose key is in the desktop keychain', () => {
  let desk: TestBackend;
  beforeAll(async () => {
    const keys = await makeDataDir();
    const keyring = connectionKeyring(join(keys, 'connection-keys.json'), aesEncryptor('gnome_libsecret'), 'linux');
    desk = await startTestBackend({}, undefined, { env: {}, keyring, instanceFile: true });
    const made = await desk.consoleApi('POST', '/connections', {
      name: 'Production',
      base_url: remote.urls.api_url,
      app_url: remote.urls.app_url,
      api_key: REMOTE_KEY,
    });
    expect(made.status, made.text).toBe(201);
  });
  afterAll(() => desk?.destroy());

  it('is refused with what to do instead; nothing is made', async () => {
    const subsBefore = (await remoteSubs()).length;
    const run = await runCountersign(['listen', '--data-dir', desk.dataDir, '--forward-to', appUrl, '--connection', 'production']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('kept in the desktop app');
    expect(run.stderr).toContain('environment variable or a key file');
    expect(run.stderr).toContain('--api-url <url> --api-key <key>');
    expect(run.stderr).not.toContain(REMOTE_KEY);
    expect((await desk.consoleApi('GET', '/inboxes')).body.data).toEqual([]);
    expect((await remoteSubs()).length).toBe(subsBefore);
  });
});

describe('a remote that goes away while listening', () => {
  it('is said once, listening goes on, and it is picked up again when the remote is back', async () => {
    const flakyDir = await makeDataDir();
    const env = { COUNTERSIGN_ADMIN_KEY: REMOTE_KEY };
    let flaky = await startHeadless({ dataDir: flakyDir, env });
    const port = new URL(flaky.urls.api_url).port;
    await connect('Flaky', { api_key_file: join(keyDir, 'remote.key') }, flaky.urls.api_url);
    const subs = async () =>
      (await callServiceApi(flaky.urls.api_url, 'GET', '/v2/webhooks', undefined, REMOTE_KEY)).body.data as { public_id: string }[];
    const listen = startListen(['--json', 'listen', '--connection', 'Flaky', '--forward-to', appUrl, '--events', 'document.voided']);
    try {
      const ready = await waitUntil(
        'the ready line',
        async () => listen.lines.map((l) => JSON.parse(l)).find((l) => l.type === 'ready'),
        30_000,
      );
      expect((await subs()).map((s) => s.public_id)).toEqual(ready.subscriptions);

      expect(await flaky.stop()).toBe(0);
      const kinds = () => listen.lines.map((l) => JSON.parse(l).type as string);
      const lost = await waitUntil(
        'the lost remote said',
        async () => listen.lines.map((l) => JSON.parse(l)).find((l) => l.type === 'unreachable'),
        30_000,
      );
      expect(lost.message).toMatch(/^cannot reach the connection "Flaky" at http:\/\/127\.0\.0\.1:\d+: .*Still trying/);
      expect(listen.child.exitCode).toBeNull();
      flaky = await startHeadless({ dataDir: flakyDir, env, args: ['--port', port] });
      await waitUntil('the remote back', async () => kinds().includes('reachable'), 30_000);
      expect(kinds().filter((k) => k === 'unreachable')).toHaveLength(1);

      await runCountersign(['trigger', 'document.voided', '--api-url', flaky.urls.api_url, '--api-key', REMOTE_KEY]);
      const line = await waitUntil(
        'a delivery line',
        async () => listen.lines.map((l) => JSON.parse(l)).find((l) => l.type === 'delivery'),
        30_000,
      );
      expect(line).toMatchObject({ event_type: 'document.voided', status: 200 });

      listen.child.kill('SIGINT');
      expect(await listen.exited).toBe(130);
      expect(listen.lines.map((l) => JSON.parse(l)).find((l) => l.type === 'stopped')).toMatchObject({ not_removed: [] });
      expect(await subs()).toEqual([]);
    } finally {
      if (listen.child.exitCode === null) listen.child.kill('SIGKILL');
      await flaky.stop();
      await rm(flakyDir, { recursive: true, force: true });
    }
  }, 120_000);
});
