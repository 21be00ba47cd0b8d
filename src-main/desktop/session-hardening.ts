// Session- and app-wide hardening (Electron's security checklist): permission requests
// and checks refused (permissions.ts), the desktop CSP added to every response from the
// console's origin (csp.ts), and, for every web contents the app ever creates, no
// <webview> and no new windows. Guards against the page gaining capabilities the
// console does not need, and against any window the app did not make on purpose.
import { app, type Session } from 'electron';
import { withConsoleCsp } from './csp.js';
import { isPermissionAllowed } from './permissions.js';

export function hardenSession(ses: Session, consoleOrigin: string): void {
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl, consoleOrigin));
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, consoleOrigin),
  );
  // USB / HID / serial device pickers: never.
  ses.setDevicePermissionHandler(() => false);
  // No URL filter: match patterns and ports do not mix well; withConsoleCsp itself
  // touches only responses from the console's exact origin.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withConsoleCsp(details.responseHeaders, details.url, consoleOrigin) as Record<string, string[]> });
  });
}

/**
 * Applied to every web contents as it is created, before any page code runs: the main
 * window then replaces the window-open handler with its own (which still opens no
 * window); anything else the app might create (DevTools included) opens no windows.
 */
export function hardenEveryWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}
