// Document links: `countersign://documents?d=<id>` (from the OS: a browser, a mail
// client, a second launch) and `{app_url}/documents?d=<id>` (docs/api.md section 1).
// Guards against a link being used to reach anything but one document screen: only the
// `documents` path, only one `d` parameter, only a well-formed document id (so no
// traversal, no extra query, no script), and the window is always sent to a URL built
// here from the console's own address, never to the link itself. Pure, no Electron.

export const PROTOCOL_SCHEME = 'countersign';

/** Document public ids: `doc_` and URL-safe letters (ids.ts makes 22 base62 characters). */
export const DOCUMENT_ID_PATTERN = /^doc_[A-Za-z0-9_-]{1,64}$/;

const MAX_LINK_LENGTH = 2048;

function parse(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LINK_LENGTH) return null;
  // Spaces, control characters and backslashes are normalised away by URL parsing; a
  // link that needs that is not one this app made.
  if (/[\u0000-\u0020\u007f\\]/.test(raw)) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** The `d` parameter when it is the only parameter, present once, and a valid document id. */
function documentIdFrom(url: URL): string | null {
  if (url.hash !== '' || url.username !== '' || url.password !== '') return null;
  const keys = [...url.searchParams.keys()];
  if (keys.length !== 1 || keys[0] !== 'd') return null;
  const id = url.searchParams.get('d');
  return id !== null && DOCUMENT_ID_PATTERN.test(id) ? id : null;
}

/**
 * `countersign://documents?d=doc_…` → the document id, or null. Accepts the host form
 * (`countersign://documents?d=`, with or without a trailing slash) and the path form
 * (`countersign:documents?d=`); refuses every other host, path, port or parameter.
 */
export function parseProtocolLink(raw: unknown): string | null {
  const url = parse(raw);
  if (!url || url.protocol !== `${PROTOCOL_SCHEME}:` || url.port !== '') return null;
  const hostForm = url.hostname === 'documents' && (url.pathname === '' || url.pathname === '/');
  const pathForm = url.hostname === '' && url.pathname === 'documents';
  if (!hostForm && !pathForm) return null;
  return documentIdFrom(url);
}

/** `{app_url}/documents?d=doc_…` on the console's own origin → the document id, or null. */
export function parseConsoleDocumentUrl(raw: unknown, consoleOrigin: string): string | null {
  const url = parse(raw);
  if (!url || url.protocol !== 'http:' || url.origin !== consoleOrigin) return null;
  if (url.pathname !== '/app/documents' && url.pathname !== '/app/documents/') return null;
  return documentIdFrom(url);
}

/** Either kind of document link → the document id, or null. */
export function parseDocumentLink(raw: unknown, consoleOrigin: string): string | null {
  return parseProtocolLink(raw) ?? parseConsoleDocumentUrl(raw, consoleOrigin);
}

/**
 * The first document link in a command line (a second launch's argv, or this launch's):
 * the OS passes `countersign://…` as an argument; Chromium switches and other arguments
 * are ignored.
 */
export function findDocumentLink(argv: readonly string[], consoleOrigin: string): string | null {
  for (const arg of argv) {
    if (arg.startsWith('--')) continue;
    const id = parseDocumentLink(arg, consoleOrigin);
    if (id) return id;
  }
  return null;
}

/**
 * The console URL that shows one document, with the console token in the fragment (the
 * page reads its token from `#token=`; a full navigation would otherwise lose it).
 */
export function documentPageUrl(appUrl: string, documentId: string, consoleToken: string): string {
  if (!DOCUMENT_ID_PATTERN.test(documentId)) throw new Error('not a document id');
  return `${appUrl}/documents?d=${encodeURIComponent(documentId)}#token=${encodeURIComponent(consoleToken)}`;
}
