// The route table: every screen with its path (paths.ts), its name and its sidebar
// group, in matching order. The sidebar, the breadcrumbs and the settings pages are
// derived from it (route-table.ts); old paths redirect to where their pages are now.
import { useEffect, type ReactNode } from 'react';
import type { Crumb } from './crumbs.js';
import { DOCUMENT_PARAM, PATHS } from './paths.js';
import { ancestorsOf, childrenOf, fillPath, isWithin, matchRoute, navGroups, type Match, type RouteEntry } from './route-table.js';
import { href, navigate, type AppLocation } from './router.js';
import { ApiKeysScreen } from './screens/api-keys/ApiKeysScreen.js';
import { CheckScreen } from './screens/check/CheckScreen.js';
import { ScenariosScreen } from './screens/scenarios/ScenariosScreen.js';
import { ByConnection, LocalOnly, RemoteNote } from './components/LocalOnly.js';
import { ConnectionsScreen } from './screens/connections/ConnectionsScreen.js';
import { RemoteDocumentsScreen } from './screens/documents/RemoteDocumentsScreen.js';
import { DocumentScreen } from './screens/document/DocumentScreen.js';
import { DocumentsScreen } from './screens/documents/DocumentsScreen.js';
import { InspectorScreen } from './screens/inspector/InspectorScreen.js';
import { NotFoundScreen } from './screens/NotFoundScreen.js';
import { NotificationsScreen } from './screens/notifications/NotificationsScreen.js';
import { ReceiverScreen } from './screens/receiver/ReceiverScreen.js';
import { SectionScreen } from './screens/settings/SectionScreen.js';
import { SubscriptionScreen } from './screens/webhooks/SubscriptionScreen.js';
import { WebhooksScreen } from './screens/webhooks/WebhooksScreen.js';

export interface Route extends RouteEntry {
  screen: (m: Match<Route>) => ReactNode;
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/** The same page at its new path, with its parameters and query string (?delivery=…). */
const movedTo =
  (pattern: string) =>
  ({ params, search }: Match<Route>) => <Redirect to={href(fillPath(pattern, params), Object.fromEntries(search))} />;

/** A page that lists what lies under it (Settings, Integrations). */
const section = ({ route }: Match<Route>) => (
  <SectionScreen
    title={route.label ?? ''}
    lede={route.description}
    items={childrenOf(ROUTES, route).map((r) => ({ label: r.label ?? '', description: r.description, to: href(r.path) }))}
  />
);

export const ROUTES: Route[] = [
  { path: PATHS.home, screen: () => <Redirect to={href(PATHS.documents)} /> },
  {
    path: PATHS.documents,
    query: DOCUMENT_PARAM,
    screen: ({ search }) => {
      const id = search.get(DOCUMENT_PARAM) ?? '';
      return <DocumentScreen key={id} id={id} />;
    },
  },
  {
    path: PATHS.documents,
    label: 'Documents',
    group: '',
    screen: () => <ByConnection local={<DocumentsScreen />} remote={<RemoteDocumentsScreen />} />,
  },
  {
    path: PATHS.notifications,
    label: 'Notifications',
    group: '',
    screen: () => (
      <LocalOnly
        title="Notifications"
        why="The notification outbox records the e-mails the built-in service would send; a real service sends real e-mail."
      >
        <NotificationsScreen />
      </LocalOnly>
    ),
  },
  {
    path: PATHS.inspector,
    label: 'Inspector',
    group: 'Webhooks',
    screen: () => (
      <>
        <RemoteNote>
          {(name) =>
            `The sender side shows the built-in service's deliveries only: ${name} sends its own. Its deliveries appear here when they arrive at one of your inboxes.`
          }
        </RemoteNote>
        <InspectorScreen />
      </>
    ),
  },
  { path: PATHS.receiver, label: 'Receiver', group: 'Webhooks', screen: () => <ReceiverScreen /> },
  {
    path: PATHS.check,
    label: 'Check an endpoint',
    group: 'Webhooks',
    screen: () => (
      <LocalOnly
        title="Check an endpoint"
        why="The built-in service sends the check's deliveries (a test helper); a real service has no such route."
      >
        <CheckScreen />
      </LocalOnly>
    ),
  },
  {
    path: PATHS.scenarios,
    label: 'Scenarios',
    group: 'Webhooks',
    screen: () => (
      <LocalOnly title="Scenarios" why="Scenarios run on the built-in service's test clock; a real service has neither.">
        <ScenariosScreen />
      </LocalOnly>
    ),
  },
  { path: PATHS.settings, label: 'Settings', description: 'How this company connects to the service.', screen: section },
  {
    path: PATHS.integrations,
    label: 'Integrations',
    description: 'Where the service tells your systems what happens to documents.',
    screen: section,
  },
  {
    path: PATHS.webhooks,
    label: 'Webhooks',
    group: 'Settings',
    description: 'Subscriptions that receive a signed POST for each document event, with their delivery logs.',
    screen: () => <WebhooksScreen />,
  },
  { path: PATHS.subscription, screen: ({ params }) => <SubscriptionScreen key={params.id} id={params.id} /> },
  {
    path: PATHS.apiKeys,
    label: 'API keys',
    group: 'Settings',
    description: 'Keys that authenticate calls to the service API.',
    screen: () => (
      <LocalOnly title="API keys" why="A real deployment's keys are managed in its own web app.">
        <ApiKeysScreen />
      </LocalOnly>
    ),
  },
  {
    path: PATHS.connections,
    label: 'Connections',
    group: 'Settings',
    description: 'Real deployments of the service this console can work on, besides the built-in one.',
    screen: () => <ConnectionsScreen />,
  },
  { path: PATHS.oldWebhooks, screen: movedTo(PATHS.webhooks) },
  { path: PATHS.oldSubscription, screen: movedTo(PATHS.subscription) },
];

/** The sidebar. */
export const NAV = navGroups(ROUTES);

export const isCurrentSection = (item: Route, current: Route | undefined) => isWithin(ROUTES, item, current);

export interface Resolved {
  route?: Route;
  screen: ReactNode;
  crumbs: Crumb[];
}

const crumbOf = (r: Route, m: Match<Route>, current?: boolean): Crumb => ({
  label: r.label ?? '',
  to: href(fillPath(r.path, m.params)),
  ...(current ? { current } : {}),
});

/**
 * What a location shows: its screen, and its breadcrumbs: the pages above it, then the
 * page itself when it has a name (a top-level page has none: its title says it all).
 */
export function resolveRoute(loc: AppLocation): Resolved {
  const m = matchRoute(ROUTES, loc);
  if (!m) return { screen: <NotFoundScreen path={loc.path} />, crumbs: [] };
  const above = ancestorsOf(ROUTES, m.route).map((r) => crumbOf(r, m));
  const crumbs = above.length > 0 && m.route.label ? [...above, crumbOf(m.route, m, true)] : above;
  return { route: m.route, screen: m.route.screen(m), crumbs };
}
