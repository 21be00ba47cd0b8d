// `countersign listen --connection` to a remote that is NOT on this machine's loopback:
// the remote must reach this machine through the tunnel's public URL. Here the remote is
// another Countersign behind an https front on one of this machine's non-loopback
// addresses (https://<that address>:<port>, a self-signed certificate the command trusts
// through NODE_EXTRA_CA_CERTS), so listen takes the tunnel's path. The front listens only
// while the test runs and passes requests to a test backend with a throwaway key. The
// ngrok cloud cannot be reached from a test, so the tunnel is the one fake: its state is
// set by hand on the local backend (in-process, writing its instance card for the
// command), and its "public URL" is a small loopback front that passes requests on to
// the local receiver, as ngrok's edge would. The command, the remote, the receiver and
// the app are real. Checked: the subscription on the remote is at the public URL, the
// remote's deliveries reach the app through it, and Ctrl-C removes it; with the tunnel
// offline, exit 3 saying how to start it, and nothing left on either side. Skipped, with
// the reason, without openssl or a non-loopback IPv4 address.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { CLI_BIN, runCountersign } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';
import type { TunnelState } from '@shared/receiver-types.js';

/** An IPv4 address of this machine that is not loopback, for the remote's front. */
const farAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

/** Why the tests cannot run here, or null. */
function cannotRun(): string | null {
  if (!farAddress) return 'this machine has no non-loopback IPv4 address to put the remote on';
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return null;
  } catch {
    return 'openssl is not installed: it makes the self-signed certificate of the https front';
  }
}
const skipReason = cannotRun();

let dir: string;
let remote: TestBackend;
let local: TestBackend;
let front: Server;
let edge: Server;
let app: Server;
let appUrl: string;
let remoteHttps: string;
let edgeUrl: string;
let tunnel: TunnelState = { status: 'offline' };
const atApp: string[] = [];

/** Passes each request on to `target` (its Host rewritten, as a reverse proxy does). */
function passTo(target: string) {
  const t = new URL(target);
  return (req: IncomingMessage, res: ServerResponse) => {
    const out = request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  };
}

async function listenOn(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  if (skipReason) return;
  dir = await mkdtemp(join(tmpdir(), 'countersign-listen-tunnel-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=countersign-test',
      '-addext',
      `subjectAltName=IP:${farAddress}`,
    ],
    { stdio: 'pipe' },
  );
  await writeFile(join(dir, 'remote.key'), `${ADMIN_KEY}\n`, { mode: 0o600 });
  remote = await startTestBackend();
  local = await startTestBackend({}, undefined, { env: {}, instanceFile: true });
  local.backend.tunnel.state = () => tunnel;
  front = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, passTo(remote.urls.api_url));
  remoteHttps = `https://${farAddress}:${await listenOn(front, farAddress)}`;
  edge = createHttpServer(passTo(local.urls.receiver_url));
  edgeUrl = `http://127.0.0.1:${await listenOn(edge)}`;
  app = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => (atApp.push(body), res.end('ok')));
  });
  appUrl = `http://127.0.0.1:${await listenOn(app)}/hooks`;
  const made = await local.consoleApi('POST', '/connections', {
    name: 'Far away',
    base_url: remoteHttps,
    app_url: 'https://app.example.com',
    api_key_file: join(dir, 'remote.key'),
  });
  expect(made.status, made.text).toBe(201);
}, 60_000);
afterAll(async () => {
  for (const s of [front, edge, app]) {
    if (!s) continue;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await local?.destroy();
  await remote?.destroy();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const cliEnv = () => ({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
const remoteSubs = async () => (await remote.api('GET', '/v2/webhooks')).body.data as { public_id: string; url: string }[];

describe.skipIf(skipReason)('listen --connection to a remote off this machine: through the tunnel', () => {
  it('with the tunnel offline: exit 3 saying how to start it, nothing left on either side', async () => {
    tunnel = { status: 'offline' };
    const run = await runCountersign(['listen', '--data-dir', local.dataDir, '--connection', 'Far away', '--forward-to', appUrl], {
      env: cliEnv(),
    });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`the connection "Far away" at ${remoteHttps} is not on this machine`);
    expect(run.stderr).toContain("Start it on the console's Receiver screen");
    expect(await remoteSubs()).toEqual([]);
    expect((await local.consoleApi('GET', '/inboxes')).body.data).toEqual([]);
  });

  it('with the tunnel online: subscribes the public URL, deliveries come through it, Ctrl-C removes it', async () => {
    tunnel = { status: 'online', public_url: edgeUrl };
    const child = spawn(
      process.execPath,
      [CLI_BIN, '--json', 'listen', '--data-dir', local.dataDir, '--connection', 'Far away', '--forward-to', appUrl, '--poll-ms', '100'],
      {
        env: { ...process.env, ...cliEnv() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines: any[] = [];
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    createInterface({ input: child.stdout }).on('line', (l) => lines.push(JSON.parse(l)));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const ready = await waitUntil(
        'the ready line',
        async () => {
          if (child.exitCode !== null) throw new Error(`listen exited early: ${stderr}`);
          return lines.find((l) => l.type === 'ready');
        },
        30_000,
      );
      expect(ready.subscription_url).toBe(`${edgeUrl}/in/${ready.inbox_id}`);
      expect((await remoteSubs()).map((s) => s.url)).toEqual([ready.subscription_url]);

      const doc = await remote.api('POST', '/v2/test_helpers/documents', {
        title: 'Far',
        recipients: [{ name: 'Ann', email: 'ann@example.com' }],
      });
      expect(doc.status).toBe(201);
      const line = await waitUntil('a delivery line', async () => lines.find((l) => l.type === 'delivery'), 30_000);
      expect(line).toMatchObject({ event_type: 'document.created', status: 200 });
      expect(atApp.some((b) => b.includes(doc.body.public_id))).toBe(true);

      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(lines.find((l) => l.type === 'stopped')).toMatchObject({ not_removed: [] });
      expect(await remoteSubs()).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
