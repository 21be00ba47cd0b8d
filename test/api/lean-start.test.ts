// The built headless service starts lean (docs/benchmark.md, figure 6: idle memory):
// what only some requests need is loaded by the first of them, not at start-up. Checked
// on the files the process has actually loaded (test/helpers/loaded-modules-probe.mjs),
// and each lazily loaded part is then used for real. Deliveries never load undici.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { startSink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';
import { NO_TOKEN_MESSAGE } from '../../src-main/backend/tunnel/tunnel.js';

const PROBE = pathToFileURL(resolve('test/helpers/loaded-modules-probe.mjs')).href;
const OUT_MAIN = pathToFileURL(resolve('out/main')).href + '/';

interface Loaded {
  cjs: string[];
  esm: string[];
}

/** What the process has loaded so far: the probe writes it on SIGUSR2. */
async function loaded(h: Headless, file: string): Promise<Loaded> {
  await rm(file, { force: true });
  h.child.kill('SIGUSR2');
  const text = await waitUntil('the probe to write the loaded modules', async () => existsSync(file) && (await readFile(file, 'utf8')));
  return JSON.parse(text) as Loaded;
}

const ngrokFiles = (l: Loaded) => l.cjs.filter((f) => f.includes('node_modules/@ngrok/'));
const undiciFiles = (l: Loaded) => l.cjs.filter((f) => f.includes('node_modules/undici/'));
const ownFiles = (l: Loaded) => l.esm.filter((u) => u.startsWith(OUT_MAIN));

describe('a lean start', () => {
  it('loads neither ngrok, nor undici, nor the OpenAPI document until a request needs them', async () => {
    const sink = await startSink();
    const probeDir = await mkdtemp(join(tmpdir(), 'countersign-loaded-'));
    const file = join(probeDir, 'loaded-modules.json');
    const h = await startHeadless({ env: { NODE_OPTIONS: `--import=${PROBE}`, COUNTERSIGN_TEST_LOADED_FILE: file } });
    try {
      const atStart = await loaded(h, file);
      // The probe works: the service's own files and its CommonJS packages are listed.
      expect(ownFiles(atStart).length).toBeGreaterThan(0);
      expect(atStart.cjs.some((f) => f.includes('node_modules/express/'))).toBe(true);
      expect(ngrokFiles(atStart)).toEqual([]); // no authtoken: the tunnel never loads it
      expect(undiciFiles(atStart)).toEqual([]); // nothing has been sent yet

      // The first request after start that asks about the tunnel answers its offline state
      // (no authtoken) without loading ngrok.
      const tunnel = await h.consoleApi('GET', '/tunnel');
      expect(tunnel.status).toBe(200);
      expect(tunnel.body).toMatchObject({ status: 'offline', message: NO_TOKEN_MESSAGE, local_url: h.urls.receiver_url });
      expect(ngrokFiles(await loaded(h, file))).toEqual([]);

      // GET /openapi.json loads one more file of the service's own, and answers the document.
      const doc = await fetch(`${h.urls.api_url}/openapi.json`);
      expect(doc.status).toBe(200);
      expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
      const afterDoc = await loaded(h, file);
      const added = ownFiles(afterDoc).filter((u) => !ownFiles(atStart).includes(u));
      expect(added).toHaveLength(1);

      // A delivery goes out through the service's own HTTP/1.1 client: undici is never loaded,
      // so its llhttp WebAssembly is never compiled (docs/architecture.md, "The delivery client").
      const sub = await h.api('POST', '/v2/webhooks', { url: `${sink.url}/hook`, type: 'all' });
      expect(sub.status).toBe(201);
      const created = await h.api('POST', '/v2/test_helpers/documents', { title: 'Lean', recipients: [{ name: 'a', email: 'a@b.co' }] });
      expect(created.status).toBe(201);
      const [got] = await sink.waitFor(1, 20_000);
      expect(got.headers['webhook-signature']).toMatch(/^v1,/);
      const afterDelivery = await loaded(h, file);
      expect(undiciFiles(afterDelivery)).toEqual([]);
      expect(ngrokFiles(afterDelivery)).toEqual([]);
    } finally {
      await h.stop();
      await sink.close();
      await rm(probeDir, { recursive: true, force: true });
    }
  });

  it('delivers after a start with a subscription without loading undici', async () => {
    const sink = await startSink();
    const probeDir = await mkdtemp(join(tmpdir(), 'countersign-loaded-'));
    const file = join(probeDir, 'loaded-modules.json');
    const dataDir = join(probeDir, 'data');
    const env = { NODE_OPTIONS: `--import=${PROBE}`, COUNTERSIGN_TEST_LOADED_FILE: file };
    try {
      const first = await startHeadless({ dataDir, env });
      expect((await first.api('POST', '/v2/webhooks', { url: `${sink.url}/hook`, type: 'all' })).status).toBe(201);
      expect(await first.stop()).toBe(0);
      const h = await startHeadless({ dataDir, env });
      try {
        const doc = await h.api('POST', '/v2/test_helpers/documents', { title: 'Again', recipients: [{ name: 'a', email: 'a@b.co' }] });
        expect(doc.status).toBe(201);
        const [got] = await sink.waitFor(1, 20_000);
        expect(got.headers['webhook-id']).toMatch(/^msg_/);
        expect(undiciFiles(await loaded(h, file))).toEqual([]);
      } finally {
        await h.stop();
      }
    } finally {
      await sink.close();
      await rm(probeDir, { recursive: true, force: true });
    }
  });
});
