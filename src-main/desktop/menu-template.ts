// The application menu: the usual roles (so that copy/paste, undo, zoom, full screen and
// window management have their native shortcuts) plus two of this app's own items.
// Pure (type-only import of Electron) so the template is unit-tested.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  isMac: boolean;
  /** DevTools and force-reload are for development builds only. */
  devTools: boolean;
  openDataFolder: () => void;
  showConsoleHome: () => void;
}

export function buildMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = [];
  if (actions.isMac) template.push({ role: 'appMenu' });
  template.push({
    label: 'File',
    submenu: [
      { label: 'Console Home', accelerator: 'CmdOrCtrl+Shift+H', click: actions.showConsoleHome },
      { label: 'Open Data Folder', click: actions.openDataFolder },
      { type: 'separator' },
      actions.isMac ? { role: 'close' } : { role: 'quit' },
    ],
  });
  template.push({ role: 'editMenu' });
  template.push({
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(actions.devTools ? ([{ role: 'forceReload' }, { role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });
  template.push({ role: 'windowMenu' });
  template.push({ role: 'help', submenu: [{ role: 'about' }] });
  return template;
}
