// A stand-in for the 'electron' module, for running the real Electron entry
// (src-main/index.ts) under Node: Electron's binary cannot run here. It records what the
// entry asks of Electron (windows, handlers, menu, protocol, quit) and lets a test play
// the OS (second launch, quit). Everything else (the backend, HTTP, files) is real.
import { EventEmitter } from 'node:events';

export const recorded = {
  windows: [] as FakeWindow[],
  loadedUrls: [] as string[],
  ipcHandlers: new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>(),
  menuTemplate: null as unknown,
  errorBoxes: [] as string[],
  exitCodes: [] as number[],
  permissionRequest: null as
    null | ((wc: unknown, permission: string, cb: (ok: boolean) => void, details: { requestingUrl?: string }) => void),
  headersReceived: null as
    | null
    | ((
        details: { url: string; responseHeaders?: Record<string, string[]> },
        cb: (r: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void),
  paths: new Map<string, string>(),
};

class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  session = {};
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
}

export class FakeWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  destroyed = false;
  maximized = false;
  currentUrl = '';
  constructor(readonly options: Record<string, unknown>) {
    super();
    recorded.windows.push(this);
    fakeApp.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url: string) {
    this.currentUrl = url;
    recorded.loadedUrls.push(url);
    setImmediate(() => this.emit('ready-to-show'));
  }
  isDestroyed() {
    return this.destroyed;
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  isMinimized() {
    return false;
  }
  isFullScreen() {
    return false;
  }
  getNormalBounds() {
    return { x: 50, y: 60, width: 1100, height: 700 };
  }
  show() {}
  focus() {}
  restore() {}
  static fromWebContents(wc: unknown) {
    return recorded.windows.find((w) => w.webContents === wc) ?? null;
  }
  static getAllWindows() {
    return recorded.windows.filter((w) => !w.destroyed);
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  setName() {}
  getName() {
    return 'Countersign';
  }
  getVersion() {
    return '0.1.0';
  }
  setPath(name: string, value: string) {
    recorded.paths.set(name, value);
  }
  getPath(name: string) {
    return recorded.paths.get(name) ?? `/nonexistent/${name}`;
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return Promise.resolve();
  }
  setAsDefaultProtocolClient() {
    return true;
  }
  quit() {
    // Electron emits before-quit with a preventable event; without preventDefault it would exit.
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.exit(0);
  }
  exit(code = 0) {
    recorded.exitCodes.push(code);
  }
}

export const fakeApp = new FakeApp();

export const electronModule = {
  app: fakeApp,
  BrowserWindow: FakeWindow,
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }] },
  dialog: {
    showErrorBox: (_title: string, message: string) => void recorded.errorBoxes.push(message),
    showMessageBox: async () => ({ response: 0 }),
  },
  Menu: {
    buildFromTemplate: (template: unknown) => (recorded.menuTemplate = template),
    setApplicationMenu: () => undefined,
  },
  Notification: class {
    static isSupported() {
      return false;
    }
  },
  // Reversible, not secure: the entry only needs something with safeStorage's shape here.
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: (s: string) => Buffer.from(s, 'utf8').reverse(),
    decryptString: (b: Buffer) => Buffer.from(b).reverse().toString('utf8'),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (h: typeof recorded.permissionRequest) => (recorded.permissionRequest = h),
      setPermissionCheckHandler: () => undefined,
      setDevicePermissionHandler: () => undefined,
      webRequest: { onHeadersReceived: (h: typeof recorded.headersReceived) => (recorded.headersReceived = h) },
    },
  },
  shell: { openExternal: async () => undefined, openPath: async () => '' },
  ipcMain: {
    handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => Promise<unknown>) => recorded.ipcHandlers.set(channel, fn),
    removeHandler: (channel: string) => recorded.ipcHandlers.delete(channel),
  },
};
