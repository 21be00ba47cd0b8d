// The service's V8 memory settings (backend/memory-settings.ts) hold in the built
// headless entry started as users start it (`node out/main/headless.js`, no flag, no
// environment variable): V8 itself, asked to trace its heap decisions, reports the
// growing factor the settings fix. The full collection is asked for through Node's
// inspector (opened by SIGUSR1 on a free loopback port), as the benchmark does; such a
// collection uses V8's smallest factor (1.1) unless the flag says otherwise.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADLESS_ADMIN_KEY, HEADLESS_ENTRY } from '../helpers/headless.js';
import { openInspector } from '../helpers/inspector.js';
import { waitUntil } from '../helpers/wait.js';
import { HEAP_GROWING_PERCENT } from '../../src-main/backend/memory-settings.js';

/** The factors of V8's "[HeapController] Limit: … (factor)" trace lines in `text`. */
const limitFactors = (text: string) => [...text.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)].map((m) => Number(m[1]));

describe('memory settings', () => {
  it('the headless entry started directly collects with the fixed heap growing factor', async () => {
    if (!existsSync(HEADLESS_ENTRY)) throw new Error('out/main/headless.js is missing: run `npm run build` first');
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-memory-'));
    // The two flags only trace and let SIGUSR1 open an inspector on a free port; they set nothing.
    const child = spawn(
      process.execPath,
      ['--trace-gc-verbose', '--inspect-port=127.0.0.1:0', HEADLESS_ENTRY, '--port', '0', '--receiver-port', '0', '--data-dir', dataDir],
      { env: { ...process.env, COUNTERSIGN_ADMIN_KEY: HEADLESS_ADMIN_KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await waitUntil('the ready line', async () => /^\{"ready":true/m.test(out), 20_000);
      const before = out.length;
      const inspector = await openInspector(child, () => err);
      expect((await inspector.call('HeapProfiler.collectGarbage')).error).toBeUndefined();
      inspector.close();
      const factors = await waitUntil('a heap limit traced after the collection', async () => {
        const f = limitFactors(out.slice(before));
        return f.length > 0 && f;
      });
      expect(factors).toEqual(factors.map(() => 1 + HEAP_GROWING_PERCENT / 100));
    } finally {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
