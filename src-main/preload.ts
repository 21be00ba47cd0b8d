// The preload: the only code that runs in the page's process with access to Electron.
// Guards against the page getting raw IPC: it exposes, through contextBridge (the
// page's world and this one are isolated), one frozen object of async functions, one per
// entry of the IPC contract, which pass plain arguments and never the IPC event or
// ipcRenderer itself. It exposes nothing unless the page is on the console's origin
// (given by the main process as an argument). The main process checks the sender of
// every call regardless. Built as CommonJS (a sandboxed preload cannot be ESM).
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, type CountersignBridge } from '@shared/ipc-contract.js';
import { ORIGIN_ARGUMENT } from './desktop/window-options.js';

const originArg = process.argv.find((arg) => arg.startsWith(ORIGIN_ARGUMENT));
const consoleOrigin = originArg?.slice(ORIGIN_ARGUMENT.length);

const bridge: CountersignBridge = Object.freeze({
  openExternal: (url: string) => ipcRenderer.invoke(IPC_CHANNELS.openExternal, String(url)),
  saveExport: (suggestedName: string, contents: string) =>
    ipcRenderer.invoke(IPC_CHANNELS.saveExport, String(suggestedName), String(contents)),
  openImport: () => ipcRenderer.invoke(IPC_CHANNELS.openImport),
  setSecret: (name: string, value: string) => ipcRenderer.invoke(IPC_CHANNELS.setSecret, String(name), String(value)),
  getSecret: (name: string) => ipcRenderer.invoke(IPC_CHANNELS.getSecret, String(name)),
  deleteSecret: (name: string) => ipcRenderer.invoke(IPC_CHANNELS.deleteSecret, String(name)),
  secretStorageInfo: () => ipcRenderer.invoke(IPC_CHANNELS.secretStorageInfo),
  appInfo: () => ipcRenderer.invoke(IPC_CHANNELS.appInfo),
});

// (tsconfig.node.json has no DOM types; the preload runs in the page's process.)
const pageOrigin = (globalThis as unknown as { location?: { origin?: string } }).location?.origin;
if (consoleOrigin && pageOrigin === consoleOrigin) {
  contextBridge.exposeInMainWorld('countersign', bridge);
}
