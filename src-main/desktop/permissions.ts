// Web permission decisions for the console window. Guards against the page (or anything
// that got into it) using the camera, microphone, location, notifications, USB, serial,
// HID, clipboard reading, full screen, etc.: every request and every check is refused,
// with one exception: writing text to the clipboard from the console's own origin
// ('clipboard-sanitized-write'), which the "copy" buttons for keys and secrets need;
// it cannot read the clipboard. Pure.

const ALLOWED_FROM_CONSOLE = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrlOrOrigin: string | undefined, consoleOrigin: string): boolean {
  if (!ALLOWED_FROM_CONSOLE.has(permission) || !requestingUrlOrOrigin) return false;
  try {
    return new URL(requestingUrlOrOrigin).origin === consoleOrigin;
  } catch {
    return false;
  }
}
