// The route table: each path written once, deep links resolved to their screens, the
// old webhook paths kept as redirects, and the sidebar and breadcrumbs derived from it.
import { describe, expect, it } from 'vitest';
import { PATHS, linkTo } from '../../src-renderer/paths.js';
import { fillPath, matchPath } from '../../src-renderer/route-table.js';
import { NAV, ROUTES, isCurrentSection, resolveRoute } from '../../src-renderer/routes.js';
import { parseLocation } from '../../src-renderer/router.js';

const resolve = (url: string) => resolveRoute(parseLocation(url));
const routeNamed = (label: string) => ROUTES.find((r) => r.label === label)!;

describe('paths', () => {
  it('match and fill patterns, decoding and encoding their parameters', () => {
    expect(matchPath(PATHS.subscription, '/settings/integrations/webhooks/wh_1')).toEqual({ id: 'wh_1' });
    expect(matchPath(PATHS.subscription, '/settings/integrations/webhooks/a%20b')).toEqual({ id: 'a b' });
    expect(matchPath(PATHS.subscription, '/settings/integrations/webhooks/%E0')).toBeNull();
    expect(matchPath(PATHS.subscription, '/settings/integrations/webhooks')).toBeNull();
    expect(fillPath(PATHS.subscription, { id: 'a b/c' })).toBe('/settings/integrations/webhooks/a%20b%2Fc');
    expect(linkTo.subscription('wh_1', 'msg_1')).toBe('/app/settings/integrations/webhooks/wh_1?delivery=msg_1');
    expect(linkTo.document('doc_1')).toBe('/app/documents?d=doc_1');
  });

  it('each have one route, and no route writes a path of its own', () => {
    const patterns = Object.values(PATHS) as string[];
    for (const r of ROUTES) expect(patterns).toContain(r.path);
    for (const p of patterns) expect(ROUTES.filter((r) => r.path === p && !r.query)).toHaveLength(1);
  });
});

describe('resolving a location', () => {
  it('opens a document by its link, with the list above it', () => {
    const r = resolve('/app/documents?d=doc_1');
    expect(r.route?.query).toBe('d');
    expect(r.crumbs).toEqual([{ label: 'Documents', to: '/app/documents' }]);
    expect(resolve('/app/documents?status=DRAFT').route?.label).toBe('Documents');
  });

  it('puts the webhooks under Settings → Integrations, every step a real page', () => {
    expect(resolve('/app/settings').route?.label).toBe('Settings');
    expect(resolve('/app/settings/').route?.label).toBe('Settings');
    expect(resolve('/app/settings').crumbs).toEqual([]); // a top-level page: its title says where one is
    expect(resolve('/app/settings/integrations').crumbs).toEqual([
      { label: 'Settings', to: '/app/settings' },
      { label: 'Integrations', to: '/app/settings/integrations', current: true },
    ]);
    expect(resolve('/app/settings/integrations/webhooks').crumbs.map((c) => c.to)).toEqual([
      '/app/settings',
      '/app/settings/integrations',
      '/app/settings/integrations/webhooks',
    ]);
    const sub = resolve('/app/settings/integrations/webhooks/wh_1?delivery=msg_1');
    expect(sub.route?.path).toBe(PATHS.subscription);
    expect(sub.crumbs).toEqual([
      { label: 'Settings', to: '/app/settings' },
      { label: 'Integrations', to: '/app/settings/integrations' },
      { label: 'Webhooks', to: '/app/settings/integrations/webhooks' },
    ]);
    expect(resolve('/app/settings/api-keys').crumbs.map((c) => c.label)).toEqual(['Settings', 'API keys']);
  });

  it('keeps the old webhook paths as redirects, and says when nothing lives at a path', () => {
    expect(resolve('/app/settings/webhooks').route?.path).toBe(PATHS.oldWebhooks);
    expect(resolve('/app/settings/webhooks/wh_1').route?.path).toBe(PATHS.oldSubscription);
    const missing = resolve('/app/settings/integrations/slack');
    expect(missing.route).toBeUndefined();
    expect(missing.crumbs).toEqual([]);
  });
});

describe('the sidebar', () => {
  it('is the named routes in their groups, in table order', () => {
    expect(NAV.map((g) => [g.label, g.items.map((i) => i.label)])).toEqual([
      ['', ['Documents', 'Notifications']],
      ['Webhooks', ['Inspector', 'Receiver', 'Check an endpoint', 'Scenarios']],
      ['Settings', ['Webhooks', 'API keys', 'Connections']],
    ]);
  });

  it('marks the entry a page sits under', () => {
    const current = (url: string) => resolve(url).route;
    expect(isCurrentSection(routeNamed('Webhooks'), current('/app/settings/integrations/webhooks/wh_1'))).toBe(true);
    expect(isCurrentSection(routeNamed('Documents'), current('/app/documents?d=doc_1'))).toBe(true);
    expect(isCurrentSection(routeNamed('API keys'), current('/app/settings/integrations/webhooks'))).toBe(false);
    expect(isCurrentSection(routeNamed('Webhooks'), current('/app/nowhere'))).toBe(false);
  });
});
