// Every in-app path (under /app), written once. The route table (routes.tsx) gives each
// its screen and its name; screens link with the builders below. The service's own web
// application names the webhooks Settings → Integrations → Webhooks, and so do these.
import { fillPath } from './route-table.js';
import { href } from './router.js';

export const PATHS = {
  home: '/',
  documents: '/documents',
  notifications: '/notifications',
  inspector: '/inspector',
  receiver: '/receiver',
  check: '/check',
  scenarios: '/scenarios',
  events: '/events',
  settings: '/settings',
  integrations: '/settings/integrations',
  webhooks: '/settings/integrations/webhooks',
  subscription: '/settings/integrations/webhooks/:id',
  apiKeys: '/settings/api-keys',
  connections: '/settings/connections',
  /** Where the webhooks were before; links to these exist, so they redirect. */
  oldWebhooks: '/settings/webhooks',
  oldSubscription: '/settings/webhooks/:id',
} as const;

/** The query parameter that opens one document: {app_url}/documents?d=<public_id> (the service's document URL). */
export const DOCUMENT_PARAM = 'd';

export const linkTo = {
  documents: () => href(PATHS.documents),
  document: (id: string) => href(PATHS.documents, { [DOCUMENT_PARAM]: id }),
  notifications: (documentId?: string) => href(PATHS.notifications, { document_id: documentId }),
  /** `row`: the row to open, `d:<delivery id>` or `c:<capture id>` (InspectorRow.ref). */
  inspector: (params?: { inbox?: string; kind?: string; origin?: string; subscription?: string; row?: string }) =>
    href(PATHS.inspector, params),
  check: () => href(PATHS.check),
  receiver: () => href(PATHS.receiver),
  webhooks: () => href(PATHS.webhooks),
  connections: () => href(PATHS.connections),
  /** One subscription; `delivery` opens that delivery in its log. */
  subscription: (id: string, delivery?: string) => href(fillPath(PATHS.subscription, { id }), { delivery }),
};
