// The console token: it arrives once in the URL fragment (#token=…, never sent to any
// server, never in logs) and is removed from the address bar at once so that it is not
// bookmarked, shared in a screenshot or left in history. The page then signs the browser
// in with it (signIn in client.ts): an HttpOnly session cookie lets every other tab of
// this browser open console links, so the token is kept nowhere a script could read later.

/** Reads the token from the fragment and strips it from the address bar; null when there is none. */
export function captureConsoleToken(loc: Location = window.location, hist: History = window.history): string | null {
  const params = new URLSearchParams(loc.hash.replace(/^#/, ''));
  const fromHash = params.get('token');
  if (!fromHash) return null;
  params.delete('token');
  const rest = params.toString();
  hist.replaceState(hist.state, '', `${loc.pathname}${loc.search}${rest ? `#${rest}` : ''}`);
  return fromHash;
}

/** The token in what a person pasted: the token itself, or the whole console_url (its #token=…). */
export function tokenFromPaste(text: string): string {
  const trimmed = text.trim();
  const hash = trimmed.indexOf('#');
  if (hash < 0) return trimmed;
  return new URLSearchParams(trimmed.slice(hash + 1)).get('token')?.trim() ?? '';
}
