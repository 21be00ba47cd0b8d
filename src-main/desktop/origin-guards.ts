// Guards against the console window being turned into something else: navigation to
// any origin but the console's (a link, a redirect, a script setting location), new
// windows (window.open, target=_blank), links handed to the OS that are not plain https,
// and IPC calls from any frame that is not the console's own top frame. Pure functions
// (no Electron import) so that they are unit-tested without Electron's binary; the
// Electron wiring in main-window.ts and ipc-handlers.ts only calls them.
import { IPC_LIMITS } from '@shared/ipc-contract.js';
import { parseConsoleDocumentUrl } from './deep-link.js';

/** Parses a URL, or null when it is not one (never throws). */
export function safeUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 8192) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * The console's origin from the backend's api_url (`http://127.0.0.1:4010`). Throws on
 * anything but a loopback http origin: the window must never be pointed elsewhere.
 */
export function consoleOriginOf(apiUrl: string): string {
  const url = safeUrl(apiUrl);
  if (!url || url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`the console must be served over loopback http (got "${apiUrl}")`);
  }
  return url.origin;
}

/**
 * May the window go to this URL? Only the console itself: same scheme, host and port
 * as the console, under /app. Everything else (other ports on loopback, the service API's
 * JSON routes, file:, data:, javascript:, blob:, other sites) is refused; external
 * links go to the system browser through the window-open handler instead.
 */
export function isAllowedNavigation(rawUrl: string, consoleOrigin: string): boolean {
  const url = safeUrl(rawUrl);
  if (!url) return false;
  if (url.protocol !== 'http:' || url.origin !== consoleOrigin) return false;
  if (url.username !== '' || url.password !== '') return false;
  return url.pathname === '/app' || url.pathname.startsWith('/app/');
}

/** A plain https link, safe to give to the OS: no credentials, a host, bounded length. */
export function isSafeExternalUrl(rawUrl: unknown): rawUrl is string {
  if (typeof rawUrl !== 'string' || rawUrl.length > IPC_LIMITS.urlLength) return false;
  const url = safeUrl(rawUrl);
  if (!url || url.protocol !== 'https:') return false;
  if (url.hostname === '' || url.username !== '' || url.password !== '') return false;
  // Control characters or spaces would be re-parsed differently by some OS URL handlers.
  return !/[\u0000-\u0020\u007f]/.test(rawUrl);
}

export type WindowOpenDecision =
  | { action: 'deny' }
  /** Hand the URL to the system browser (https only); the app opens no window. */
  | { action: 'external'; url: string }
  /** A console document link (target=_blank on a document's `url`): show it in the main window. */
  | { action: 'open-document'; documentId: string };

/** What to do with `window.open` / target=_blank: never a new Electron window. */
export function decideWindowOpen(rawUrl: string, consoleOrigin: string): WindowOpenDecision {
  const documentId = parseConsoleDocumentUrl(rawUrl, consoleOrigin);
  if (documentId) return { action: 'open-document', documentId };
  if (isSafeExternalUrl(rawUrl)) return { action: 'external', url: rawUrl };
  return { action: 'deny' };
}

/** The part of Electron's WebFrameMain that the sender check reads. */
export interface SenderFrameLike {
  url: string;
  /** null for the top frame. */
  parent: unknown;
}

/**
 * Is this IPC call from the console's own top frame? `event.senderFrame` is null when
 * the frame has navigated away or been destroyed: refused, as is any subframe and any
 * frame whose current URL is not on the console's origin.
 */
export function isTrustedSender(frame: SenderFrameLike | null | undefined, consoleOrigin: string): boolean {
  if (!frame || frame.parent !== null) return false;
  return isAllowedNavigation(frame.url, consoleOrigin);
}
