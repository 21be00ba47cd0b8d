// The route table's logic, apart from the screens (pure, tested on its own): matching
// an in-app location against path patterns ("/settings/integrations/webhooks/:id"),
// filling a pattern, and deriving the sidebar, the breadcrumbs and a page's children
// from the table, so that each path is written once (paths.ts) and named once (routes.tsx).
import type { AppLocation } from './router.js';

export type Params = Record<string, string>;

export interface RouteEntry {
  /** A pattern of paths.ts: literal segments and :name parameters. */
  path: string;
  /** Chosen only when this query parameter is present (/documents?d=<id> is one document). */
  query?: string;
  /** Its name in the sidebar, the breadcrumbs and its parent's page; an unnamed route (a redirect) appears nowhere. */
  label?: string;
  /** The sidebar group it is listed under ('' is the first, unnamed group); absent: not in the sidebar. */
  group?: string;
  /** One line about it on its parent's page. */
  description?: string;
}

export interface Match<R extends RouteEntry> {
  route: R;
  params: Params;
  search: URLSearchParams;
}

export interface NavGroup<R extends RouteEntry> {
  label: string;
  items: R[];
}

const segments = (path: string) => path.split('/').filter(Boolean);

/** Whether the first segments of `b` are `a` (patterns compared as written), with `a` at most `maxLength` long. */
const startsWith = (b: string[], a: string[], maxLength: number) => a.length <= maxLength && a.every((s, i) => s === b[i]);

/** The parameters of `path` under `pattern`, or null when it does not match. */
export function matchPath(pattern: string, path: string): Params | null {
  const want = segments(pattern);
  const got = segments(path);
  if (want.length !== got.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    if (!want[i].startsWith(':')) {
      if (want[i] !== got[i]) return null;
      continue;
    }
    try {
      params[want[i].slice(1)] = decodeURIComponent(got[i]);
    } catch {
      return null; // a malformed escape: no such page
    }
  }
  return params;
}

/** The in-app path of a pattern with its parameters, e.g. fillPath('/a/:id', { id: 'x y' }) = '/a/x%20y'. */
export function fillPath(pattern: string, params: Params = {}): string {
  return (
    '/' +
    segments(pattern)
      .map((s) => (s.startsWith(':') ? encodeURIComponent(params[s.slice(1)] ?? '') : s))
      .join('/')
  );
}

/** The first route of the table that the location matches. */
export function matchRoute<R extends RouteEntry>(table: readonly R[], loc: AppLocation): Match<R> | null {
  for (const route of table) {
    if (route.query && !loc.search.get(route.query)) continue;
    const params = matchPath(route.path, loc.path);
    if (params) return { route, params, search: loc.search };
  }
  return null;
}

/** The named routes above `route`, outermost first: its path's prefixes (and, for a query route, its path itself). */
export function ancestorsOf<R extends RouteEntry>(table: readonly R[], route: R): R[] {
  const own = segments(route.path);
  const longest = route.query ? own.length : own.length - 1;
  return table
    .filter((r) => r !== route && r.label && !r.query && startsWith(own, segments(r.path), longest))
    .sort((a, b) => segments(a.path).length - segments(b.path).length);
}

/** The named routes one level below `route`, in table order (a settings page lists them). */
export function childrenOf<R extends RouteEntry>(table: readonly R[], route: R): R[] {
  const own = segments(route.path);
  return table.filter((r) => {
    const theirs = segments(r.path);
    return r.label && !r.query && theirs.length === own.length + 1 && startsWith(theirs, own, own.length);
  });
}

/** The sidebar: the routes that name a group, grouped in table order. */
export function navGroups<R extends RouteEntry>(table: readonly R[]): NavGroup<R>[] {
  const groups: NavGroup<R>[] = [];
  for (const r of table) {
    if (r.group === undefined || !r.label) continue;
    let g = groups.find((x) => x.label === r.group);
    if (!g) groups.push((g = { label: r.group, items: [] }));
    g.items.push(r);
  }
  return groups;
}

/** Whether `item` is the current route or one above it (its sidebar entry then shows where one is). */
export function isWithin<R extends RouteEntry>(table: readonly R[], item: R, current: R | undefined): boolean {
  return current !== undefined && (item === current || ancestorsOf(table, current).includes(item));
}
