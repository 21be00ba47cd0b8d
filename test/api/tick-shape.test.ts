// node's tick objects keep their hidden classes through garbage collections
// (src-main/backend/http/tick-shape.ts). Without the pin, a full collection while no
// tick was alive freed their maps, the inline caches of process.nextTick's literal went
// megamorphic for the rest of the process, and GET /documents/{id} cost 2-3 µs more
// (docs/benchmark.md, "Figure 1 and process.nextTick"). The built headless service runs
// here with a probe (test/helpers/tick-shape-probe.mjs) that forces a full collection
// after each of the first responses, once their ticks ran, then prints nextTick's
// feedback (V8's %DebugPrint). Its stdout goes to a file: V8 writes through C's stdio,
// which a pipe would leave buffered.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HEADLESS_ADMIN_KEY, HEADLESS_ENTRY } from '../helpers/headless.js';
import { callServiceApi } from '../helpers/http.js';
import { waitUntil } from '../helpers/wait.js';

const PROBE = pathToFileURL(resolve('test/helpers/tick-shape-probe.mjs')).href;
const GC_FIRST = 12;
const REPORT_AT = GC_FIRST + 4;

describe('tick objects after garbage collections at idle', () => {
  it('keeps the inline caches of process.nextTick’s literal monomorphic', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'countersign-tick-'));
    const outFile = join(dir, 'stdout.txt');
    const fd = openSync(outFile, 'w');
    const child = spawn(process.execPath, [HEADLESS_ENTRY, '--port', '0', '--receiver-port', '0', '--data-dir', join(dir, 'data')], {
      env: {
        ...process.env,
        COUNTERSIGN_ADMIN_KEY: HEADLESS_ADMIN_KEY,
        NODE_OPTIONS: `--import=${PROBE}`,
        COUNTERSIGN_TEST_GC_FIRST: String(GC_FIRST),
        COUNTERSIGN_TEST_TICK_REPORT: String(REPORT_AT),
      },
      stdio: ['ignore', fd, 'pipe'],
    });
    closeSync(fd);
    let err = '';
    child.stderr!.on('data', (c) => (err += c));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const stdout = () => readFile(outFile, 'utf8');
      const firstLine = await waitUntil('the ready line', async () => {
        const [line, ...rest] = (await stdout()).split('\n');
        return rest.length > 0 && line; // complete once a newline follows it
      });
      const ready = JSON.parse(firstLine) as { api_url: string };
      const api = (method: string, path: string, body?: unknown) => callServiceApi(ready.api_url, method, path, body, HEADLESS_ADMIN_KEY);
      const gcDone = (i: number) => waitUntil(`the probe's collection after response ${i}`, async () => err.includes(`[tick] gc ${i}\n`));
      const created = await api('POST', '/v2/test_helpers/documents', { title: 'Ticks', recipients: [{ name: 'a', email: 'a@b.co' }] });
      expect(created.status).toBe(201);
      await gcDone(1);
      const id = (created.body as { public_id: string }).public_id;
      for (let i = 2; i <= REPORT_AT; i++) {
        const got = await api('GET', `/documents/${id}`);
        expect(got.status).toBe(200);
        if (i <= GC_FIRST) await gcDone(i);
      }
      await waitUntil('the probe’s report', async () => err.includes('[tick] report done\n'));
      const out = await stdout();
      const report = out.slice(out.indexOf('[tick] report begin'), out.indexOf('[tick] report end'));
      const states = [...report.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]);
      // The probe read the literal's four keys (it works), and none of them went megamorphic.
      expect(
        states.length,
        `no DefineKeyedOwnPropertyInLiteral slot in V8's print of process.nextTick (node ${process.version}): another V8's format?`,
      ).toBeGreaterThanOrEqual(4);
      expect(states).toEqual(states.map(() => 'MONOMORPHIC'));
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
