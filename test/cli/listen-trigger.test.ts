// `countersign listen` and `countersign trigger` as a user runs them: child processes of
// bin/countersign.mjs against a separately started headless Countersign (the built entry,
// a real child process) found through its data directory, and a small loopback app as
// the forward target. Checked: the secret printed once, one line per delivery with the
// app's answer, the deliveries verifying with that secret at the app, and Ctrl-C
// removing the subscriptions and the inbox the command made (and nothing else).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '../helpers/backend.js';
import { CLI_BIN, runCountersign } from '../helpers/cli.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { waitUntil } from '../helpers/wait.js';

interface AppHit {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let h: Headless;
let dataDir: string;
let app: Server;
let appUrl: string;
const hits: AppHit[] = [];

beforeAll(async () => {
  dataDir = await makeDataDir();
  h = await startHeadless({ dataDir });
  app = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ url: req.url!, headers: req.headers, body });
      // The first document.created is answered 503, so that its retry shows as a line of its own.
      const firstCreated = body.includes('"document.created"') && !hits.slice(0, -1).some((x) => x.body.includes('"document.created"'));
      res.writeHead(firstCreated ? 503 : 200, { 'content-type': 'text/plain' }).end(`app saw ${hits.length}`);
    });
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  app.closeAllConnections();
  await new Promise((r) => app.close(r));
  await h.stop();
});

/** Starts `countersign listen` and collects its JSON lines. */
function startListen(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [CLI_BIN, '--json', 'listen', '--data-dir', dataDir, '--poll-ms', '100', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: any[] = [];
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(JSON.parse(l)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, lines, exited, stderr: () => stderr };
}

describe('countersign listen and trigger', () => {
  it('forwards deliveries to the app, prints one line each, and Ctrl-C removes what it made', async () => {
    const before = (await h.api('GET', '/v2/webhooks')).body.data.map((s: any) => s.public_id);
    const listen = startListen(['--forward-to', appUrl, '--events', 'document.created,document.completed']);
    const ready = await waitUntil('the ready line', async () => listen.lines.find((l) => l.type === 'ready'), 30_000);
    expect(ready.secret).toMatch(/^whsec_/);
    expect(ready.subscriptions).toHaveLength(2);
    expect(ready.forward_to).toBe(appUrl);
    const subs = (await h.api('GET', '/v2/webhooks')).body.data.filter((s: any) => ready.subscriptions.includes(s.public_id));
    expect(subs.map((s: any) => s.type).sort()).toEqual(['document.completed', 'document.created']);
    expect(subs.every((s: any) => s.url === ready.inbox_url)).toBe(true);
    expect((await h.consoleApi('GET', `/inboxes/${ready.inbox_id}`)).body.response).toEqual({ mode: 'forward', url: appUrl });

    const trigger = await runCountersign(['--json', 'trigger', 'document.completed', '--data-dir', dataDir, '--set', 'title=Lease 42']);
    expect(trigger.code, trigger.stderr).toBe(0);
    const made = JSON.parse(trigger.stdout);
    expect(made).toMatchObject({ event_type: 'document.completed', steps: ['create', 'send', 'complete', 'complete'] });

    // The app answers the first document.created 503, so it is retried: its second attempt is a line of its own.
    const deliveries = await waitUntil(
      'three delivery lines',
      async () => {
        const d = listen.lines.filter((l) => l.type === 'delivery');
        return d.length >= 3 ? d : null;
      },
      30_000,
    );
    expect(deliveries.map((d) => d.event_type).sort()).toEqual(['document.completed', 'document.created', 'document.created']);
    const created = deliveries.filter((d) => d.event_type === 'document.created');
    expect(created.map((d) => [d.attempt, d.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    expect(deliveries.find((d) => d.event_type === 'document.completed')).toMatchObject({ status: 200, attempt: 1 });
    for (const d of deliveries) expect(d.webhook_id).toMatch(/^msg_/);
    expect(listen.lines.filter((l) => l.secret)).toHaveLength(1);

    // At the app: the exact deliveries, verifying with the printed secret.
    const wh = new Webhook(ready.secret);
    const atApp = hits.filter((x) => x.url === '/webhooks');
    expect(atApp.length).toBeGreaterThanOrEqual(3);
    for (const hit of atApp) {
      const event = wh.verify(hit.body, hit.headers as Record<string, string>) as any;
      expect(event.data.document.public_id).toBe(made.document_id);
    }
    expect(JSON.parse(atApp.at(-1)!.body).data.document.title).toBe('Lease 42');

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
    const stopped = listen.lines.find((l) => l.type === 'stopped');
    expect(stopped).toMatchObject({ removed: { subscriptions: ready.subscriptions, inbox: ready.inbox_id }, not_removed: [] });
    const after = (await h.api('GET', '/v2/webhooks')).body.data.map((s: any) => s.public_id);
    expect(after.sort()).toEqual(before.sort());
    expect((await h.consoleApi('GET', `/inboxes/${ready.inbox_id}`)).status).toBe(404);
  }, 90_000);

  it('a forward target off this machine is refused by the service, naming why; nothing is left behind', async () => {
    const before = (await h.consoleApi('GET', '/inboxes')).body.data.length;
    const run = await runCountersign(['listen', '--data-dir', dataDir, '--forward-to', 'http://example.com/hook']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('response.url');
    expect(run.stderr).toContain('COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST');
    expect((await h.consoleApi('GET', '/inboxes')).body.data.length).toBe(before);
  });

  it('usage mistakes are exit 2 before anything is made', async () => {
    const noTarget = await runCountersign(['listen', '--data-dir', dataDir]);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('--forward-to');
    const badEvent = await runCountersign(['listen', '--data-dir', dataDir, '--forward-to', appUrl, '--events', 'document.signed']);
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('document.signed');
    const badTrigger = await runCountersign(['trigger', 'document.signed', '--data-dir', dataDir]);
    expect(badTrigger.code).toBe(2);
    const badSet = await runCountersign(['trigger', 'document.sent', '--data-dir', dataDir, '--set', 'colour=red']);
    expect(badSet.code).toBe(2);
    expect(badSet.stderr).toContain('colour');
  });
});
