// The console token: it arrives once in the URL fragment (#token=…, never sent to any
// server, never in logs), is kept in sessionStorage for this tab's life, and is removed
// from the address bar at once so that it is not bookmarked, shared in a screenshot
// or left in history.
const KEY = 'countersign.console-token';

/** Reads the token from the fragment (then strips it) or from sessionStorage. */
export function captureConsoleToken(loc: Location = window.location, hist: History = window.history): string | null {
  const params = new URLSearchParams(loc.hash.replace(/^#/, ''));
  const fromHash = params.get('token');
  if (fromHash) {
    try {
      sessionStorage.setItem(KEY, fromHash);
    } catch {
      // Storage refused (privacy mode): the token still works for this page's life.
    }
    params.delete('token');
    const rest = params.toString();
    hist.replaceState(hist.state, '', `${loc.pathname}${loc.search}${rest ? `#${rest}` : ''}`);
    return fromHash;
  }
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function forgetConsoleToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
