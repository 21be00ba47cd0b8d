// The desktop app end to end, after `npm run build`.
//
// 1. `npm start` where the window cannot open: one line saying why, then the headless
//    console, its ready line, a human line with console_url, and a clean stop on
//    SIGTERM. This runs everywhere (with ELECTRON_SKIP_BINARY_DOWNLOAD=1 so that no
//    download is ever tried from a test, or COUNTERSIGN_HEADLESS=1 where Electron exists).
// 2. The real app through Playwright's `_electron`: launches it, sees the console,
//    checks the window's security settings at runtime, creates a subscription, follows a
//    document link from a second launch, and is refused a foreign navigation. It needs
//    Electron's binary and a display; where either is missing it is SKIPPED and the
//    reason is printed (the unit tests in test/unit/desktop prove the logic without it).
// 3. The keychain path of connections with the real safeStorage: a typed remote key is
//    kept encrypted in connection-keys.json, unreadable through the page's bridge, and
//    used to reach a headless "remote"; without a real keychain it is not offered.
//    Skipped with the same reason; test/api/connections-keychain.test.ts runs the same
//    code with a stand-in encryptor everywhere.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountersignBridge } from '@shared/ipc-contract.js';
import { electronBinary, hasDisplay, parseReadyLine } from '../../scripts/start.mjs';
import { ROOT } from '../../scripts/build-state.mjs';
import { startHeadless } from '../helpers/headless.js';

const DESKTOP_REMOTE_KEY = 'cs_desktop_remote_admin_key_00000';

const binary = electronBinary();
const skipReason = !binary.path
  ? `Electron's binary is not available here (${binary.reason})`
  : !hasDisplay()
    ? 'no display (DISPLAY / WAYLAND_DISPLAY unset)'
    : '';
if (skipReason) console.warn(`[e2e/electron] the Electron window test is SKIPPED: ${skipReason}.`);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-desktop-e2e-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm start without a window', () => {
  it('says why in one line, runs the headless console, prints where it is, and stops cleanly', async () => {
    const env: Record<string, string | undefined> = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
    if (binary.path) env.COUNTERSIGN_HEADLESS = '1';
    const child = spawn(
      process.execPath,
      [join(ROOT, 'scripts', 'start.mjs'), '--port', '0', '--receiver-port', '0', '--data-dir', join(dir, 'headless-data')],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const deadline = Date.now() + 50_000;
    while (!/Countersign console: /.test(stderr) && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 100));
    const ready = stdout.split('\n').map(parseReadyLine).find(Boolean);
    expect(ready, `stdout: ${stdout}\nstderr: ${stderr}`).toBeTruthy();

    const whyLines = stderr.split('\n').filter((l) => l.endsWith('running the headless console instead.'));
    expect(whyLines).toHaveLength(1);
    expect(whyLines[0]).toMatch(binary.path ? /COUNTERSIGN_HEADLESS=1/ : /^Electron's binary is not available \(/);
    expect(stderr).toContain(`Countersign console: ${ready!.console_url}`);

    // The console it points to answers (the page, served under /app with its CSP).
    const page = await fetch(ready!.console_url.split('#')[0]);
    expect(page.status).toBeLessThan(500);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe.skipIf(Boolean(skipReason))(`the desktop app (Electron)${skipReason ? ` [skipped: ${skipReason}]` : ''}`, () => {
  it('shows the console, keeps the page away from Node, creates a subscription and follows document links', async () => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'ELECTRON_RUN_AS_NODE'),
    );
    const app = await electron.launch({
      executablePath: binary.path!,
      args: [ROOT, '--port', '0', '--receiver-port', '0'],
      cwd: ROOT,
      env: { ...env, COUNTERSIGN_USER_DATA_DIR: join(dir, 'user-data'), COUNTERSIGN_DATA_DIR: join(dir, 'desktop-data') },
    });
    try {
      const page = await app.firstWindow();
      await page.waitForURL(/\/app\//);
      const origin = new URL(page.url()).origin;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      // The page's view of itself: no Node, no Electron, only the frozen bridge.
      type Page = {
        countersign?: CountersignBridge;
        require?: unknown;
        process?: unknown;
        location: { href: string };
        open(url: string): unknown;
      };
      expect(await page.evaluate(() => typeof (globalThis as unknown as Page).require)).toBe('undefined');
      expect(await page.evaluate(() => typeof (globalThis as unknown as Page).process)).toBe('undefined');
      expect(await page.evaluate(() => Object.keys((globalThis as unknown as Page).countersign ?? {}).sort())).toContain('appInfo');
      expect(await page.evaluate(() => Object.isFrozen((globalThis as unknown as Page).countersign))).toBe(true);
      const info = await page.evaluate(() => (globalThis as unknown as Page).countersign!.appInfo());
      expect(info.dataDir).toBe(join(dir, 'desktop-data'));

      // Create a subscription through the console.
      await page.getByRole('link', { name: 'Webhooks' }).first().click();
      const url = `${origin}/e2e-hook`;
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByLabel('Subscription type').selectOption('document.completed');
      await page.getByRole('button', { name: 'Create subscription' }).click();
      await expect.poll(async () => page.getByText(/whsec_/).count(), { timeout: 15_000 }).toBeGreaterThan(0);

      // A foreign navigation and a new window are refused (loopback only: no traffic leaves).
      await page.evaluate(() => {
        const w = globalThis as unknown as Page;
        w.open('http://127.0.0.1:9/elsewhere');
        w.location.href = 'http://127.0.0.1:9/elsewhere';
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(new URL(page.url()).origin).toBe(origin);
      expect(app.windows()).toHaveLength(1);

      // A second launch with a document link focuses this window on the document.
      await app.evaluate(({ app: electronApp }) => {
        electronApp.emit('second-instance', {}, ['countersign', 'countersign://documents?d=doc_e2eDeepLink1'], '', {});
      });
      await page.waitForURL(/\/app\/documents\?d=doc_e2eDeepLink1/);
    } finally {
      await app.close();
    }
  });

  it('keeps a typed connection key in the OS keychain (connection-keys.json), never in plain text, and reaches the remote with it', async () => {
    const remote = await startHeadless({ env: { COUNTERSIGN_ADMIN_KEY: DESKTOP_REMOTE_KEY } });
    const env = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'ELECTRON_RUN_AS_NODE'),
    );
    const userData = join(dir, 'user-data-keychain');
    const app = await electron.launch({
      executablePath: binary.path!,
      args: [ROOT, '--port', '0', '--receiver-port', '0'],
      cwd: ROOT,
      env: { ...env, COUNTERSIGN_USER_DATA_DIR: userData, COUNTERSIGN_DATA_DIR: join(dir, 'desktop-data-keychain') },
    });
    try {
      const page = await app.firstWindow();
      await page.waitForURL(/\/app\//);
      type Bridge = { countersign: CountersignBridge };
      const storage = await page.evaluate(() => (globalThis as unknown as Bridge).countersign.secretStorageInfo());
      await page.getByRole('link', { name: 'Manage connections' }).click();
      await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
      const typed = page.getByRole('radio', { name: /Type it/ });
      if (!storage.protectedByKeychain) {
        // No real keychain (e.g. Linux 'basic_text'): a typed key is not offered.
        expect(await typed.isDisabled()).toBe(true);
        return;
      }
      await typed.check();
      await page.getByLabel('Name', { exact: true }).fill('Remote');
      await page.getByLabel('API address').fill(remote.urls.api_url);
      await page.getByLabel('App address').fill(remote.urls.app_url);
      await page.getByLabel('API key').fill(DESKTOP_REMOTE_KEY);
      await page.getByRole('button', { name: 'Add connection' }).click();
      await page.getByRole('cell', { name: 'OS keychain' }).waitFor();
      const file = await readFile(join(userData, 'connection-keys.json'), 'utf8');
      expect(file).not.toContain(DESKTOP_REMOTE_KEY);
      // The page's own secret bridge cannot read it back.
      const ids = Object.keys(JSON.parse(file).secrets as Record<string, string>);
      expect(ids).toHaveLength(1);
      expect(await page.evaluate((n) => (globalThis as unknown as Bridge).countersign.getSecret(n), ids[0])).toBeNull();
      await page.getByLabel('Connection', { exact: true }).selectOption({ label: 'Remote' });
      await page.locator('.connection-remote').getByText('Online').waitFor({ timeout: 15_000 });
    } finally {
      await app.close();
      await remote.stop();
    }
  });
});
