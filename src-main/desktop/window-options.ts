// The console window's options, per Electron's security checklist. Guards against page
// code reaching Node or Electron: context isolation (the page cannot touch the preload's
// world), the Chromium sandbox (the renderer process has no Node at all, the preload
// only a small bridge), no Node integration anywhere (page, workers, subframes), web
// security and mixed-content blocking on, no <webview>, no experimental Blink features.
// Pure (type-only import of Electron) so that every flag is asserted by a unit test.
import type { BrowserWindowConstructorOptions } from 'electron';
import type { WindowBounds } from './bounds-store.js';

export interface WindowOptionsInput {
  /** Absolute path of the built preload (out/preload/preload.cjs). */
  preloadPath: string;
  bounds: WindowBounds;
  /** The console's origin: the preload exposes the bridge only to pages on it. */
  consoleOrigin: string;
  /** DevTools are for development builds only. */
  devTools: boolean;
  icon?: string;
}

/** The argument the preload reads (process.argv) to know the console's origin. */
export const ORIGIN_ARGUMENT = '--countersign-console-origin=';

export function buildWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    x: input.bounds.x,
    y: input.bounds.y,
    width: input.bounds.width,
    height: input.bounds.height,
    minWidth: 720,
    minHeight: 480,
    title: 'Countersign',
    // Shown on 'ready-to-show', so the user never sees a blank white frame.
    show: false,
    backgroundColor: '#ffffff',
    autoHideMenuBar: false,
    ...(input.icon ? { icon: input.icon } : {}),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      // Dropping a file on the window must not navigate to it.
      navigateOnDragDrop: false,
      // A page that loops on alert() gets a "prevent more dialogs" checkbox.
      safeDialogs: true,
      devTools: input.devTools,
      spellcheck: true,
      additionalArguments: [`${ORIGIN_ARGUMENT}${input.consoleOrigin}`],
    },
  };
}
