// The real Electron entry (src-main/index.ts) run under Node against a stand-in for the
// 'electron' module (fake-electron.ts; Electron's binary cannot run here). What is real:
// the backend it starts (HTTP on 127.0.0.1, port 0, data in a temp folder), the files it
// writes, and every guard it wires. It proves the wiring: the window gets the console
// URL with the token and the secure options, the guards and IPC handlers are attached,
// document links from a second launch reach the window, and quitting stops the
// backend before exiting.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '@shared/ipc-contract.js';
import { fakeApp, recorded, type FakeWindow } from './fake-electron.js';

vi.mock('electron', async () => (await import('./fake-electron.js')).electronModule);

async function until<T>(probe: () => T | undefined | null | false, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the Electron entry, wired to a real backend', () => {
  let dir: string;
  let userData: string;
  let win: FakeWindow;
  let consoleUrl: string;
  let origin: string;
  const printed: string[] = [];
  const savedArgv = process.argv;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'countersign-entry-'));
    userData = join(dir, 'user-data');
    process.env.COUNTERSIGN_USER_DATA_DIR = userData;
    delete process.env.NGROK_AUTHTOKEN;
    delete process.env.COUNTERSIGN_DATA_DIR;
    process.argv = [process.execPath, 'out/main/index.js', '--port', '0', '--receiver-port', '0', '--no-sandbox'];
    // Captured, not echoed (the ready line carries this run's console token).
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    await import('../../../src-main/index.js');
    consoleUrl = await until(() => recorded.loadedUrls[0], 'the window to load the console');
    win = recorded.windows[0];
    origin = new URL(consoleUrl).origin;
  });

  afterAll(async () => {
    process.argv = savedArgv;
    process.env = savedEnv;
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('starts the backend with its data in the user-data folder and loads the console URL with its token', async () => {
    expect(consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/#token=[\w-]{20,}$/);
    const ready = printed.map((l) => l.trim()).find((l) => l.startsWith('{"ready":true'));
    expect(JSON.parse(ready!).console_url).toBe(consoleUrl);
    expect(existsSync(join(userData, 'service-data'))).toBe(true);
    // The page really is served there, with the backend's CSP.
    const res = await fetch(consoleUrl.split('#')[0]);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('opens one window with the secure options and the built preload', () => {
    expect(recorded.windows).toHaveLength(1);
    const web = win.options.webPreferences as Record<string, unknown>;
    expect(web).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      devTools: true,
    });
    expect(String(web.preload)).toMatch(/preload[\\/]preload\.cjs$/);
  });

  it('adds the desktop CSP to console responses and refuses permissions', () => {
    let headers: Record<string, string[]> | undefined;
    recorded.headersReceived!({ url: `${origin}/app/`, responseHeaders: {} }, (r) => (headers = r.responseHeaders));
    expect(headers!['Content-Security-Policy'][0]).toContain("default-src 'none'");
    let granted: boolean | undefined;
    recorded.permissionRequest!(win.webContents, 'media', (ok) => (granted = ok), { requestingUrl: `${origin}/app/` });
    expect(granted).toBe(false);
  });

  it('refuses navigation away from the console and every new window', () => {
    const prevent = vi.fn();
    win.webContents.emit('will-navigate', { url: 'http://127.0.0.1:9/elsewhere', preventDefault: prevent });
    expect(prevent).toHaveBeenCalledTimes(1);
    const allow = vi.fn();
    win.webContents.emit('will-navigate', { url: `${origin}/app/settings/webhooks`, preventDefault: allow });
    expect(allow).not.toHaveBeenCalled();
    const redirect = vi.fn();
    win.webContents.emit('will-redirect', { url: 'file:///etc/passwd', preventDefault: redirect });
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(win.webContents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(win.webContents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  });

  it('shows a document from a second launch, and from a target=_blank console link', async () => {
    fakeApp.emit('second-instance', {}, ['countersign', '--no-sandbox', 'countersign://documents?d=doc_fromSecondLaunch'], '/', {});
    await until(() => recorded.loadedUrls.at(-1)?.includes('doc_fromSecondLaunch'), 'the document link');
    expect(recorded.loadedUrls.at(-1)).toBe(`${origin}/app/documents?d=doc_fromSecondLaunch#token=${consoleUrl.split('#token=')[1]}`);
    win.webContents.windowOpenHandler!({ url: `${origin}/app/documents?d=doc_fromLink` });
    expect(recorded.loadedUrls.at(-1)).toContain('/app/documents?d=doc_fromLink#token=');
    fakeApp.emit('second-instance', {}, ['countersign', 'countersign://settings?d=doc_x'], '/', {});
    expect(recorded.loadedUrls.at(-1)).toContain('doc_fromLink');
  });

  it('answers IPC from the console frame only', async () => {
    const appInfo = recorded.ipcHandlers.get(IPC_CHANNELS.appInfo)!;
    const fromConsole = { sender: win.webContents, senderFrame: { url: `${origin}/app/`, parent: null } };
    expect(await appInfo(fromConsole)).toMatchObject({ dataDir: join(userData, 'service-data'), userDataDir: userData });
    await expect(appInfo({ ...fromConsole, senderFrame: { url: 'https://evil.example/', parent: null } })).rejects.toThrow(/refused/);
    expect(await recorded.ipcHandlers.get(IPC_CHANNELS.secretStorageInfo)!(fromConsole)).toMatchObject({
      backend: 'basic_text',
      protectedByKeychain: false,
    });
  });

  it('has an application menu', () => {
    expect(JSON.stringify(recorded.menuTemplate)).toContain('editMenu');
  });

  it('on quit, holds the quit, stops the backend (lock released, bounds saved), then exits', async () => {
    const lock = join(userData, 'service-data', 'countersign.lock');
    expect(existsSync(lock)).toBe(true);
    fakeApp.quit();
    // The first quit is held until the backend has stopped.
    expect(recorded.exitCodes).toEqual([]);
    await until(() => recorded.exitCodes.length > 0, 'the exit');
    expect(recorded.exitCodes).toEqual([0]);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(join(userData, 'window-state.json'))).toBe(true);
    await expect(fetch(consoleUrl.split('#')[0])).rejects.toThrow();
  });
});
