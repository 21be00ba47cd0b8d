// The headless entry as users run it (docs/api.md section 2): the built file, flags,
// the ready line, the console page, a clean stop, a second instance refused.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HEADLESS_ENTRY, startHeadless } from '../helpers/headless.js';

describe('headless entry', () => {
  it('prints one ready line, serves API and console, and stops cleanly on SIGTERM', async () => {
    const h = await startHeadless({ keepData: true });
    try {
      expect(Object.keys(h.urls).sort()).toEqual(['api_url', 'app_url', 'console_url', 'ready', 'receiver_url']);
      expect(h.urls.api_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(h.urls.app_url).toBe(`${h.urls.api_url}/app`);
      expect(h.urls.console_url.startsWith(`${h.urls.app_url}/`)).toBe(true);
      expect(h.urls.console_url).toMatch(/token=[\w-]{20,}/);
      const res = await fetch(`${h.urls.api_url}/v2/webhooks`, { headers: { 'x-api-key': h.adminKey } });
      expect(res.status).toBe(200);
      const page = await fetch(h.urls.app_url + '/');
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
      const doc = await fetch(`${h.urls.api_url}/v2/test_helpers/documents`, {
        method: 'POST',
        headers: { 'x-api-key': h.adminKey, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Survives stop', recipients: [{ name: 'a', email: 'a@b.co' }] }),
      });
      expect(doc.status).toBe(201);
    } finally {
      expect(await h.stop()).toBe(0);
    }
    const onDisk = JSON.parse(await readFile(join(h.dataDir, 'data.json'), 'utf8'));
    expect(onDisk.documents.map((d: { title: string }) => d.title)).toContain('Survives stop');
    // The lock is released on a clean stop: a new instance starts on the same folder.
    const again = await startHeadless({ dataDir: h.dataDir });
    expect(await again.stop()).toBe(0);
  });

  it('refuses a second instance on the same data directory with a non-zero exit', async () => {
    const h = await startHeadless();
    try {
      const second = spawnSync(process.execPath, [HEADLESS_ENTRY, '--port', '0', '--receiver-port', '0', '--data-dir', h.dataDir], {
        encoding: 'utf8',
        timeout: 15000,
      });
      expect(second.status).not.toBe(0);
      expect(second.stderr).toMatch(/Another Countersign instance/);
      expect(second.stdout).toBe('');
    } finally {
      await h.stop();
    }
  });

  it('explains bad flags and exits non-zero', () => {
    const bad = spawnSync(process.execPath, [HEADLESS_ENTRY, '--port', 'abc'], { encoding: 'utf8', timeout: 15000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--port must be a whole number/);
    const unknown = spawnSync(process.execPath, [HEADLESS_ENTRY, '--bogus', '1'], { encoding: 'utf8', timeout: 15000 });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown flag --bogus/);
  });
});
