// A small history-based router: paths live under /app (the page's base), deep links
// and reloads work because the server answers every /app path with the page. Links are
// real <a href> elements (middle-click, copy link, keyboard) that navigate in place.
import { useCallback, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

export const BASE = '/app';
const NAV_EVENT = 'countersign:navigate';

export interface AppLocation {
  /** The path inside the app, e.g. "/documents" ("/" for the root). */
  path: string;
  search: URLSearchParams;
}

function snapshot(): string {
  return window.location.pathname + window.location.search;
}

function subscribe(cb: () => void): () => void {
  window.addEventListener('popstate', cb);
  window.addEventListener(NAV_EVENT, cb);
  return () => {
    window.removeEventListener('popstate', cb);
    window.removeEventListener(NAV_EVENT, cb);
  };
}

export function parseLocation(pathAndSearch: string): AppLocation {
  const url = new URL(pathAndSearch, 'http://local');
  let path = url.pathname;
  if (path === BASE || path.startsWith(`${BASE}/`)) path = path.slice(BASE.length);
  path = path.replace(/\/+$/, '') || '/';
  return { path, search: url.searchParams };
}

/** The full href of an in-app path, e.g. href('/documents', { d: id }). */
export function href(path: string, params?: Record<string, string | undefined>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== '') qs.set(k, v);
  const q = qs.toString();
  return `${BASE}${path === '/' ? '/' : path}${q ? `?${q}` : ''}`;
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAV_EVENT));
}

export function useLocation(): AppLocation {
  const current = useSyncExternalStore(subscribe, snapshot);
  return parseLocation(current);
}

/** Updates some query parameters of the current path (replacing history by default). */
export function useSearchParamSetter(): (patch: Record<string, string | undefined>, opts?: { push?: boolean }) => void {
  return useCallback((patch, opts) => {
    const loc = parseLocation(snapshot());
    const params: Record<string, string | undefined> = Object.fromEntries(loc.search.entries());
    Object.assign(params, patch);
    navigate(href(loc.path, params), { replace: !opts?.push });
  }, []);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; children: ReactNode };

/** An anchor that navigates in place on a plain left click. `to` is a full href (see href()). */
export function Link({ to, onClick, children, ...rest }: LinkProps) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
    window.scrollTo?.(0, 0);
  };
  return (
    <a href={to} onClick={handle} {...rest}>
      {children}
    </a>
  );
}
