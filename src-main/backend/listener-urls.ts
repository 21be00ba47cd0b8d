// The ports the listeners got (0 until they listen) and the URLs made from them. Each
// URL of the API listener is made once per port and is then the very same string, so
// comparing it with one kept earlier is a pointer check (the hot read compares the app
// URL in a document's view on every request: domain/document-json.ts).

/** `make(source[field])`, made again only when that value changes. */
function sameWhile<T, K extends keyof T>(source: T, field: K, make: (value: T[K]) => string): () => string {
  let at: { value: T[K]; made: string } | undefined;
  return () => {
    const value = source[field];
    if (!at || at.value !== value) at = { value, made: make(value) };
    return at.made;
  };
}

export function listenerUrls(host: string) {
  const ports = { api: 0, receiver: 0 };
  return {
    ports,
    apiBase: sameWhile(ports, 'api', (port) => `http://${host}:${port}`),
    appUrl: sameWhile(ports, 'api', (port) => `http://${host}:${port}/app`),
    receiverUrl: () => `http://${host}:${ports.receiver}`,
  };
}
