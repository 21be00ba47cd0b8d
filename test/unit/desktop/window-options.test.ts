// Every security flag of the console window (Electron's checklist), asserted on the
// options object the app passes to BrowserWindow; no Electron binary needed.
import { describe, expect, it } from 'vitest';
import { buildWindowOptions, ORIGIN_ARGUMENT } from '../../../src-main/desktop/window-options.js';

const base = {
  preloadPath: '/app/out/preload/preload.cjs',
  bounds: { x: 10, y: 20, width: 1200, height: 800, maximized: false },
  consoleOrigin: 'http://127.0.0.1:4010',
  devTools: false,
};

describe('buildWindowOptions', () => {
  const options = buildWindowOptions(base);
  const web = options.webPreferences!;

  it('isolates the page from the preload and sandboxes the renderer', () => {
    expect(web.contextIsolation).toBe(true);
    expect(web.sandbox).toBe(true);
  });

  it('gives no Node to the page, its workers or its subframes', () => {
    expect(web.nodeIntegration).toBe(false);
    expect(web.nodeIntegrationInWorker).toBe(false);
    expect(web.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and refuses mixed content, webviews and experimental features', () => {
    expect(web.webSecurity).toBe(true);
    expect(web.allowRunningInsecureContent).toBe(false);
    expect(web.webviewTag).toBe(false);
    expect(web.experimentalFeatures).toBe(false);
    expect(web.navigateOnDragDrop).toBe(false);
    expect(web).not.toHaveProperty('enableBlinkFeatures');
  });

  it('loads the given preload and tells it the console origin', () => {
    expect(web.preload).toBe(base.preloadPath);
    expect(web.additionalArguments).toEqual([`${ORIGIN_ARGUMENT}http://127.0.0.1:4010`]);
  });

  it('turns DevTools on only when asked (development builds)', () => {
    expect(web.devTools).toBe(false);
    expect(buildWindowOptions({ ...base, devTools: true }).webPreferences!.devTools).toBe(true);
  });

  it('uses the remembered bounds and stays hidden until ready to show', () => {
    expect(options).toMatchObject({ x: 10, y: 20, width: 1200, height: 800, show: false });
  });

  it('leaves the position to Electron (centred) when none is remembered', () => {
    const o = buildWindowOptions({ ...base, bounds: { width: 1280, height: 820, maximized: false } });
    expect(o.x).toBeUndefined();
    expect(o.y).toBeUndefined();
    expect(o.width).toBe(1280);
  });
});
