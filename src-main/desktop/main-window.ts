// The console window: built from window-options.ts, guarded by origin-guards.ts, its
// size and place remembered by bounds-store.ts. Guards against the window leaving the
// console (navigation and redirects to any other origin refused; links to https sites
// handed to the system browser instead), opening new windows, or a crashed renderer
// leaving a dead window.
import { BrowserWindow, screen, shell, type WebContents } from 'electron';
import { readBounds, writeBounds, type WindowBounds } from './bounds-store.js';
import { buildWindowOptions } from './window-options.js';
import { decideWindowOpen, isAllowedNavigation, isSafeExternalUrl } from './origin-guards.js';

export interface MainWindowOptions {
  consoleUrl: string;
  consoleOrigin: string;
  preloadPath: string;
  boundsFile: string;
  devTools: boolean;
  icon?: string;
  /** A console document link was opened with target=_blank: show it in this window. */
  openDocument: (documentId: string) => void;
}

export interface MainWindow {
  window: BrowserWindow;
  /** Writes the current bounds now (at quit, when windows are destroyed without 'close'). */
  saveBounds(): Promise<void>;
}

function openExternally(url: string): void {
  if (isSafeExternalUrl(url)) void shell.openExternal(url).catch(() => undefined);
}

function guardNavigation(contents: WebContents, options: MainWindowOptions): void {
  contents.on('will-navigate', (event) => {
    if (isAllowedNavigation(event.url, options.consoleOrigin)) return;
    event.preventDefault();
    // A plain link to a web page goes to the system browser, as target=_blank does.
    const decision = decideWindowOpen(event.url, options.consoleOrigin);
    if (decision.action === 'external') openExternally(decision.url);
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, options.consoleOrigin)) event.preventDefault();
  });
  // Subframes (the CSP forbids them; this is the second wall).
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isAllowedNavigation(event.url, options.consoleOrigin)) event.preventDefault();
  });
  contents.setWindowOpenHandler((details) => {
    const decision = decideWindowOpen(details.url, options.consoleOrigin);
    if (decision.action === 'external') openExternally(decision.url);
    else if (decision.action === 'open-document') options.openDocument(decision.documentId);
    return { action: 'deny' };
  });
}

function currentBounds(win: BrowserWindow): WindowBounds {
  const b = win.getNormalBounds();
  return { x: b.x, y: b.y, width: b.width, height: b.height, maximized: win.isMaximized() };
}

export async function createMainWindow(options: MainWindowOptions): Promise<MainWindow> {
  const workAreas = screen.getAllDisplays().map((d) => d.workArea);
  const bounds = await readBounds(options.boundsFile, workAreas);
  const win = new BrowserWindow(
    buildWindowOptions({
      preloadPath: options.preloadPath,
      bounds,
      consoleOrigin: options.consoleOrigin,
      devTools: options.devTools,
      icon: options.icon,
    }),
  );
  guardNavigation(win.webContents, options);
  if (bounds.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  const saveBounds = async (): Promise<void> => {
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return;
    await writeBounds(options.boundsFile, currentBounds(win)).catch(() => undefined);
  };
  win.on('close', () => void saveBounds());

  // A crashed or killed renderer: reload once, but not in a loop if it crashes on load.
  let lastReload = 0;
  win.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit' || win.isDestroyed()) return;
    if (Date.now() - lastReload < 10_000) return;
    lastReload = Date.now();
    void win.loadURL(options.consoleUrl);
  });

  await win.loadURL(options.consoleUrl);
  return { window: win, saveBounds };
}
