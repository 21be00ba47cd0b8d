// The IPC wiring on both sides: the preload's bridge and the main process's handlers.
// Electron itself cannot run here (no binary), so the 'electron' module is replaced by
// a stand-in that records what the code asks of it (contextBridge, ipcRenderer,
// ipcMain, dialog, shell); the files, the secret store and the checks are real.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '@shared/ipc-contract.js';
import { ORIGIN_ARGUMENT } from '../../../src-main/desktop/window-options.js';
import { SecretStore } from '../../../src-main/desktop/secret-store.js';
import { aesEncryptor } from '../../helpers/aes-encryptor.js';

const ORIGIN = 'http://127.0.0.1:4010';

const fake = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>(),
  opened: [] as string[],
  saveTo: '' as string,
  openFrom: '' as string,
  userData: '' as string,
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api) },
  ipcRenderer: { invoke: async (...args: unknown[]) => fake.invoked.push(args) },
  ipcMain: {
    handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => Promise<unknown>) => fake.handlers.set(channel, fn),
    removeHandler: (channel: string) => fake.handlers.delete(channel),
  },
  shell: { openExternal: async (url: string) => void fake.opened.push(url) },
  dialog: {
    showSaveDialog: async () => ({ canceled: fake.saveTo === '', filePath: fake.saveTo }),
    showOpenDialog: async () => ({ canceled: fake.openFrom === '', filePaths: fake.openFrom ? [fake.openFrom] : [] }),
  },
  app: {
    getPath: () => fake.userData,
    getName: () => 'Countersign',
    getVersion: () => '0.1.0',
  },
  BrowserWindow: { fromWebContents: () => null },
}));

describe('preload bridge', () => {
  const savedArgv = process.argv;
  afterEach(() => {
    process.argv = savedArgv;
    delete (globalThis as Record<string, unknown>).location;
    fake.exposed.clear();
    fake.invoked.length = 0;
    vi.resetModules();
  });

  async function loadPreload(pageOrigin: string, argOrigin: string | null) {
    process.argv = [...savedArgv, ...(argOrigin ? [`${ORIGIN_ARGUMENT}${argOrigin}`] : [])];
    (globalThis as Record<string, unknown>).location = { origin: pageOrigin };
    await import('../../../src-main/preload.js');
  }

  it('exposes one frozen object of functions, exactly the contract, on the console origin', async () => {
    await loadPreload(ORIGIN, ORIGIN);
    const bridge = fake.exposed.get('countersign') as Record<string, unknown>;
    expect([...fake.exposed.keys()]).toEqual(['countersign']);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.keys(bridge).sort()).toEqual(Object.keys(IPC_CHANNELS).sort());
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function');
    expect(JSON.stringify(Object.keys(bridge))).not.toMatch(/ipcRenderer|invoke|send|on\b/);
  });

  it('sends each call on its own channel with plain string arguments', async () => {
    await loadPreload(ORIGIN, ORIGIN);
    const bridge = fake.exposed.get('countersign') as Record<string, (...a: unknown[]) => Promise<unknown>>;
    await bridge.openExternal('https://example.com/');
    await bridge.saveExport('a.json', '{}');
    await bridge.setSecret('ngrok_authtoken', { toString: () => 'tok' });
    await bridge.appInfo();
    expect(fake.invoked).toEqual([
      [IPC_CHANNELS.openExternal, 'https://example.com/'],
      [IPC_CHANNELS.saveExport, 'a.json', '{}'],
      [IPC_CHANNELS.setSecret, 'ngrok_authtoken', 'tok'],
      [IPC_CHANNELS.appInfo],
    ]);
  });

  it('exposes nothing to a page on another origin, or without the origin argument', async () => {
    await loadPreload('https://evil.example', ORIGIN);
    expect(fake.exposed.size).toBe(0);
    vi.resetModules();
    await loadPreload(ORIGIN, null);
    expect(fake.exposed.size).toBe(0);
  });
});

describe('main-process handlers', () => {
  let dir: string;
  let stop: () => void;
  const mainContents = { id: 1 };
  const topFrame = { url: `${ORIGIN}/app/#token=t`, parent: null };
  const event = (over: Partial<{ sender: unknown; senderFrame: unknown }> = {}) => ({
    sender: mainContents,
    senderFrame: topFrame,
    ...over,
  });
  const call = (name: keyof typeof IPC_CHANNELS, ev: unknown, ...args: unknown[]) => fake.handlers.get(IPC_CHANNELS[name])!(ev, ...args);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'countersign-ipc-'));
    fake.userData = dir;
    fake.opened.length = 0;
    fake.saveTo = '';
    fake.openFrom = '';
    const { registerIpcHandlers } = await import('../../../src-main/desktop/ipc-handlers.js');
    stop = registerIpcHandlers({
      consoleOrigin: ORIGIN,
      secrets: new SecretStore(join(dir, 'secrets.json'), aesEncryptor('basic_text'), 'linux'),
      dataDir: join(dir, 'service-data'),
      getWindow: () => ({ webContents: mainContents }) as never,
    });
  });
  afterEach(async () => {
    stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('registers one handler per contract channel, and removes them', () => {
    expect([...fake.handlers.keys()].sort()).toEqual(Object.values(IPC_CHANNELS).sort());
    stop();
    expect(fake.handlers.size).toBe(0);
    stop = () => undefined;
  });

  it('refuses calls from a foreign origin, a subframe, a missing frame or another web contents', async () => {
    const refused = [
      event({ senderFrame: { url: 'https://evil.example/', parent: null } }),
      event({ senderFrame: { url: 'http://127.0.0.1:4011/', parent: null } }),
      event({ senderFrame: { url: `${ORIGIN}/app/`, parent: topFrame } }),
      event({ senderFrame: null }),
      event({ sender: { id: 2 } }),
    ];
    for (const ev of refused) {
      await expect(call('appInfo', ev)).rejects.toThrow(/refused/);
      await expect(call('openExternal', ev, 'https://example.com/')).rejects.toThrow(/refused/);
    }
    expect(fake.opened).toEqual([]);
  });

  it('opens https links only', async () => {
    await expect(call('openExternal', event(), 'https://example.com/docs')).resolves.toEqual({ opened: true });
    for (const bad of ['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 42]) {
      await expect(call('openExternal', event(), bad)).rejects.toThrow(/https/);
    }
    expect(fake.opened).toEqual(['https://example.com/docs']);
  });

  it('saves an export where the user chose, and reports a cancelled dialog', async () => {
    expect(await call('saveExport', event(), 'x.json', '{}')).toEqual({ saved: false });
    fake.saveTo = join(dir, 'chosen.json');
    expect(await call('saveExport', event(), '../../evil.json', '{"a":1}')).toEqual({ saved: true, path: fake.saveTo });
    expect(await readFile(fake.saveTo, 'utf8')).toBe('{"a":1}');
    await expect(call('saveExport', event(), 'x.json', { not: 'text' })).rejects.toThrow(/text/);
  });

  it('reads an import the user chose', async () => {
    expect(await call('openImport', event())).toEqual({ opened: false });
    fake.openFrom = join(dir, 'in.json');
    await writeFile(fake.openFrom, '{"inbox":1}');
    expect(await call('openImport', event())).toEqual({ opened: true, name: 'in.json', contents: '{"inbox":1}' });
    await expect(call('openImport', event(), 'extra')).rejects.toThrow(/no arguments/);
  });

  it('keeps secrets, and says when there is no real keychain', async () => {
    const info = (await call('setSecret', event(), 'ngrok_authtoken', 'tok_123')) as { protectedByKeychain: boolean; backend: string };
    expect(info).toMatchObject({ protectedByKeychain: false, backend: 'basic_text' });
    expect(await call('getSecret', event(), 'ngrok_authtoken')).toBe('tok_123');
    expect(await call('deleteSecret', event(), 'ngrok_authtoken')).toEqual({ deleted: true });
    expect(await call('getSecret', event(), 'ngrok_authtoken')).toBeNull();
    await expect(call('setSecret', event(), '../x', 'v')).rejects.toThrow(/secret name/);
  });

  it('reports the app facts and data folder', async () => {
    expect(await call('appInfo', event())).toMatchObject({
      name: 'Countersign',
      version: '0.1.0',
      dataDir: join(dir, 'service-data'),
      userDataDir: dir,
    });
  });
});
