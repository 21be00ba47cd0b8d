// The Electron entry: one instance per user, the backend (the same composition root as
// the headless entry) with its data in the user-data folder, one window showing the
// console, document links, failure notifications, and a clean quit. The security
// decisions live in desktop/ (each file says what it guards against).
//
// Why the window loads the loopback console URL (http://127.0.0.1:<port>/app/#token=…)
// and not a custom protocol: the backend already serves the console there with its
// CSP, and the console API already checks the per-run token, the Host header and the
// Origin; a custom-protocol origin would need those checks relaxed (CORS for a second
// origin) and a second way of serving the same files. One origin, one set of checks,
// the same page as in the headless console. Navigation is pinned to that exact origin
// (origin-guards.ts). See docs/desktop.md.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, Menu, Notification, safeStorage, session, shell } from 'electron';
import { createBackend, type Backend, type BackendAddresses } from './backend/index.js';
import { loadConfig } from './backend/config.js';
import { NGROK_AUTHTOKEN_SECRET } from '@shared/ipc-contract.js';
import { backendArgsFrom } from './desktop/backend-args.js';
import { documentPageUrl, findDocumentLink, parseDocumentLink, PROTOCOL_SCHEME } from './desktop/deep-link.js';
import { createFailureBatcher, type FailureNotice } from './desktop/failure-notifier.js';
import { registerIpcHandlers } from './desktop/ipc-handlers.js';
import { createMainWindow, type MainWindow } from './desktop/main-window.js';
import { buildMenuTemplate } from './desktop/menu-template.js';
import { consoleOriginOf } from './desktop/origin-guards.js';
import { SecretStore } from './desktop/secret-store.js';
import { connectionKeyring } from './desktop/connection-keyring.js';
import { startupErrorMessage } from './desktop/startup-error.js';
import { hardenEveryWebContents, hardenSession } from './desktop/session-hardening.js';

const here = fileURLToPath(new URL('.', import.meta.url)); // out/main/
const PRELOAD = join(here, '../preload/preload.cjs');
const RENDERER_DIR = join(here, '../renderer');
/** Bounded so that a stuck listener cannot keep the app from quitting. */
const STOP_TIMEOUT_MS = 15_000;

interface Running {
  backend: Backend;
  addresses: BackendAddresses;
  origin: string;
  main: MainWindow | null;
  stopIpc: () => void;
  unsubscribe: () => void;
  disposeNotifier: () => void;
}

let running: Running | null = null;
/** The start in progress, so that a quit during start waits for it before stopping. */
let starting: Promise<void> = Promise.resolve();
/** Links that arrived before the window was there (first launch argv, macOS open-url). */
const pendingLinks: string[] = [];
/** Kept until shown and dismissed, or Electron may collect them (and their click handler). */
const liveNotices = new Set<Notification>();

// One user-data folder for development and packaged builds alike (Electron would name
// it after package.json's "name" in one and the product name in the other); tests and
// side-by-side profiles give their own. Set before 'ready', before anything reads it.
app.setName('Countersign');
app.setPath(
  'userData',
  process.env.COUNTERSIGN_USER_DATA_DIR ? resolve(process.env.COUNTERSIGN_USER_DATA_DIR) : join(app.getPath('appData'), 'Countersign'),
);

function focusWindow(): void {
  const win = running?.main?.window;
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

function openDocument(documentId: string): void {
  const win = running?.main?.window;
  if (!running || !win || win.isDestroyed()) return;
  void win.loadURL(documentPageUrl(running.addresses.app_url, documentId, running.backend.consoleToken)).catch(() => undefined);
  focusWindow();
}

function openLink(raw: string): void {
  if (!running?.main) {
    pendingLinks.push(raw);
    return;
  }
  const id = parseDocumentLink(raw, running.origin);
  if (id) openDocument(id);
}

function showNotice(notice: FailureNotice): void {
  if (!Notification.isSupported()) return;
  const note = new Notification({ title: notice.title, body: notice.body });
  liveNotices.add(note);
  note.on('click', () => {
    focusWindow();
    if (notice.documentId) openDocument(notice.documentId);
  });
  note.on('close', () => liveNotices.delete(note));
  note.show();
}

function registerProtocol(): void {
  // A development build does not take over the OS's link handling unless asked; the
  // packaged app registers itself (and its .desktop file declares the scheme).
  if (!app.isPackaged && process.env.COUNTERSIGN_REGISTER_PROTOCOL !== '1') return;
  if (process.defaultApp && process.argv[1]) {
    app.setAsDefaultProtocolClient(PROTOCOL_SCHEME, process.execPath, [resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(PROTOCOL_SCHEME);
  }
}

async function openWindow(r: Running): Promise<void> {
  r.main = await createMainWindow({
    consoleUrl: r.addresses.console_url,
    consoleOrigin: r.origin,
    preloadPath: PRELOAD,
    boundsFile: join(app.getPath('userData'), 'window-state.json'),
    devTools: !app.isPackaged,
    openDocument,
  });
  r.main.window.on('closed', () => {
    if (running?.main?.window.isDestroyed()) running.main = null;
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  hardenEveryWebContents();
  const userData = app.getPath('userData');
  const secrets = new SecretStore(join(userData, 'secrets.json'), safeStorage);
  const config = loadConfig(backendArgsFrom(process.argv.slice(1)), process.env, { dataDir: join(userData, 'service-data') });
  // The ngrok authtoken from the keychain, unless the environment gives one.
  config.ngrokAuthtoken ??= (await secrets.get(NGROK_AUTHTOKEN_SECRET)) ?? undefined;

  const keyring = connectionKeyring(join(userData, 'connection-keys.json'), safeStorage);
  const backend = createBackend(config, { rendererDir: RENDERER_DIR, instanceFile: true, keyring });
  const addresses = await backend.start();
  const origin = consoleOriginOf(addresses.api_url);
  hardenSession(session.defaultSession, origin);

  const batcher = createFailureBatcher(showNotice);
  const r: Running = {
    backend,
    addresses,
    origin,
    main: null,
    stopIpc: () => undefined,
    unsubscribe: backend.bus.subscribe((change) => batcher.onChange(change)),
    disposeNotifier: () => batcher.dispose(),
  };
  running = r;
  r.stopIpc = registerIpcHandlers({ consoleOrigin: origin, secrets, dataDir: config.dataDir, getWindow: () => r.main?.window ?? null });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        isMac: process.platform === 'darwin',
        devTools: !app.isPackaged,
        openDataFolder: () => void shell.openPath(config.dataDir),
        showConsoleHome: () => void r.main?.window.loadURL(addresses.console_url).catch(() => undefined),
      }),
    ),
  );
  await openWindow(r);

  // The same ready line as the headless entry, for scripts and tests that launch the app.
  process.stdout.on('error', () => undefined);
  process.stdout.write(JSON.stringify({ ready: true, ...addresses }) + '\n');

  // The last link wins: it is the one the user opened most recently.
  const id = findDocumentLink([...pendingLinks.splice(0)].reverse(), origin) ?? findDocumentLink(process.argv.slice(1), origin);
  if (id) openDocument(id);
  for (const w of backend.warnings) console.error(`countersign: warning: ${w}`);
  if (backend.warnings.length > 0 && r.main) {
    void dialog.showMessageBox(r.main.window, {
      type: 'warning',
      title: 'Countersign',
      message: 'Countersign started with warnings',
      detail: backend.warnings.join('\n\n'),
    });
  }
}

async function stop(): Promise<void> {
  await starting.catch(() => undefined);
  const r = running;
  if (!r) return;
  r.unsubscribe();
  r.disposeNotifier();
  await r.main?.saveBounds();
  // Deliveries in flight are persisted by the engine's stop; listeners and tunnel closed.
  await r.backend.stop().catch((err: unknown) => console.error('countersign: stop failed:', err));
  r.stopIpc();
}

async function stopWithin(ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>(
    (done) =>
      (timer = setTimeout(() => {
        console.error(`countersign: the backend did not stop within ${ms / 1000} s; quitting anyway`);
        done();
      }, ms)),
  );
  await Promise.race([stop(), timeout]);
  clearTimeout(timer);
}

function main(): void {
  // A second launch hands its arguments (a document link, perhaps) to the first and quits.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', (_event, argv) => {
    focusWindow();
    if (!running?.main) {
      pendingLinks.push(...argv.slice(1));
      return;
    }
    const id = findDocumentLink(argv.slice(1), running.origin);
    if (id) openDocument(id);
  });
  // macOS delivers countersign:// links here, possibly before 'ready'.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLink(url);
  });
  registerProtocol();

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (running && !running.main) void openWindow(running);
  });

  // Quit once, cleanly: hold the quit, stop the backend, then exit for real.
  let quitState: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('before-quit', (event) => {
    if (quitState === 'stopped') return;
    event.preventDefault();
    if (quitState === 'stopping') return;
    quitState = 'stopping';
    void stopWithin(STOP_TIMEOUT_MS).finally(() => {
      quitState = 'stopped';
      app.exit(0);
    });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  starting = start();
  starting.catch((err: unknown) => {
    const message = startupErrorMessage(err);
    console.error(`countersign: could not start: ${message}`);
    dialog.showErrorBox('Countersign could not start', message);
    quitState = 'stopping';
    void stopWithin(STOP_TIMEOUT_MS).finally(() => {
      quitState = 'stopped';
      app.exit(1);
    });
  });
}

main();
