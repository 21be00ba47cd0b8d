// The desktop's Content-Security-Policy for the console. Guards against injected
// script (anything received is shown as text, but a strict CSP is the second wall):
// scripts, styles, fonts, images and connections only from the console's own origin,
// no inline script, no eval, no plugins, no frames, no <base> tricks, no form posts.
//
// The backend already sends a CSP with /app. The desktop adds this one as a SECOND
// header on every response from the console's origin (session.webRequest), rather than
// replacing the backend's: a browser enforces every CSP header it gets, so the window
// is at least this strict whatever the backend sends, and the headless console keeps
// the backend's. Pure, no Electron.

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // fetch and the live stream (EventSource) go to the same listener.
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "worker-src 'none'",
].join('; ');

export type ResponseHeaders = Record<string, string[] | string>;

/**
 * The response headers with the desktop CSP added, for a response from the console's
 * origin; other responses are returned unchanged (the window never loads them anyway).
 */
export function withConsoleCsp(headers: ResponseHeaders | undefined, responseUrl: string, consoleOrigin: string): ResponseHeaders {
  const out: ResponseHeaders = { ...(headers ?? {}) };
  let origin: string;
  try {
    origin = new URL(responseUrl).origin;
  } catch {
    return out;
  }
  if (origin !== consoleOrigin) return out;
  // Header names arrive in any case; keep what the backend sent under its own key.
  const key = Object.keys(out).find((k) => k.toLowerCase() === 'content-security-policy') ?? 'Content-Security-Policy';
  const existing = out[key];
  const values = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  out[key] = [...values, CONSOLE_CSP];
  return out;
}
