// The main-process side of the IPC contract (src-shared/ipc-contract.ts). Guards against
// the bridge being used by anything but the console: every handler first checks that
// the call comes from the console window's own top frame on the console's origin
// (origin-guards.ts isTrustedSender), then checks its arguments (ipc-validate.ts);
// files are only written or read where the user chose in a native dialog.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, shell, type IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS, type AppInfo, type IpcContract, type IpcName } from '@shared/ipc-contract.js';
import { isSafeExternalUrl, isTrustedSender } from './origin-guards.js';
import { checkExportContents, checkImportSize, checkNoArgs, IpcArgumentError, sanitizeFileName } from './ipc-validate.js';
import type { SecretStore } from './secret-store.js';

export interface IpcDeps {
  consoleOrigin: string;
  secrets: SecretStore;
  dataDir: string;
  getWindow: () => BrowserWindow | null;
}

type Handler<K extends IpcName> = (event: IpcMainInvokeEvent, args: unknown[]) => Promise<IpcContract[K]['result']>;

/** Asks where to save an export (a native dialog) and writes it there. */
async function saveExport(win: BrowserWindow | null, suggestedName: unknown, text: string): Promise<IpcContract['saveExport']['result']> {
  const options = { title: 'Save export', defaultPath: join(app.getPath('downloads'), sanitizeFileName(suggestedName)) };
  const choice = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { saved: false };
  await writeFile(choice.filePath, text, 'utf8');
  return { saved: true, path: choice.filePath };
}

/** Asks for a file to import (a native dialog) and reads it, refusing folders and oversized files. */
async function openImport(win: BrowserWindow | null): Promise<IpcContract['openImport']['result']> {
  const options = {
    title: 'Import',
    properties: ['openFile' as const],
    filters: [
      { name: 'JSON', extensions: ['json'] },
      { name: 'All files', extensions: ['*'] },
    ],
  };
  const choice = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  const file = choice.filePaths[0];
  if (choice.canceled || !file) return { opened: false };
  const info = await stat(file);
  if (!info.isFile()) throw new IpcArgumentError('not a file');
  checkImportSize(info.size);
  return { opened: true, name: basename(file), contents: await readFile(file, 'utf8') };
}

export function registerIpcHandlers(deps: IpcDeps): () => void {
  const registered: string[] = [];
  function handle<K extends IpcName>(name: K, handler: Handler<K>): void {
    const channel = IPC_CHANNELS[name];
    registered.push(channel);
    ipcMain.handle(channel, async (event, ...args: unknown[]) => {
      const fromMainWindow = deps.getWindow()?.webContents === event.sender;
      if (!fromMainWindow || !isTrustedSender(event.senderFrame, deps.consoleOrigin)) {
        throw new Error(`refused: ${name} may only be called by the console`);
      }
      return handler(event, args);
    });
  }
  const parentWindow = (event: IpcMainInvokeEvent) => BrowserWindow.fromWebContents(event.sender) ?? deps.getWindow();

  handle('openExternal', async (_event, [url, ...rest]) => {
    if (rest.length > 0 || !isSafeExternalUrl(url)) throw new IpcArgumentError('only an https:// link can be opened');
    await shell.openExternal(url);
    return { opened: true };
  });

  handle('saveExport', async (event, [suggestedName, contents, ...rest]) => {
    checkNoArgs(rest);
    return saveExport(parentWindow(event), suggestedName, checkExportContents(contents));
  });
  handle('openImport', async (event, args) => {
    checkNoArgs(args);
    return openImport(parentWindow(event));
  });

  handle('setSecret', async (_event, [name, value, ...rest]) => {
    checkNoArgs(rest);
    return deps.secrets.set(name, value);
  });
  handle('getSecret', async (_event, [name, ...rest]) => {
    checkNoArgs(rest);
    return deps.secrets.get(name);
  });
  handle('deleteSecret', async (_event, [name, ...rest]) => {
    checkNoArgs(rest);
    return { deleted: await deps.secrets.delete(name) };
  });
  handle('secretStorageInfo', async (_event, args) => {
    checkNoArgs(args);
    return deps.secrets.info();
  });

  handle('appInfo', async (_event, args): Promise<AppInfo> => {
    checkNoArgs(args);
    return {
      name: app.getName(),
      version: app.getVersion(),
      electron: process.versions.electron ?? '',
      chrome: process.versions.chrome ?? '',
      node: process.versions.node,
      platform: process.platform,
      dataDir: deps.dataDir,
      userDataDir: app.getPath('userData'),
    };
  });

  return () => {
    for (const channel of registered) ipcMain.removeHandler(channel);
  };
}
