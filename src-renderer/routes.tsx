// Which screen a path shows. Paths are those of the service's web application
// (CONTRACT.md: {app_url}/documents?d=<id>; Settings → Integrations → Webhooks).
// Room is left for /inspector and /receiver (the delivery inspector's screens).
import { useEffect, type ReactNode } from 'react';
import { href, navigate, type AppLocation } from './router.js';
import { DocumentsScreen } from './screens/documents/DocumentsScreen.js';
import { DocumentScreen } from './screens/document/DocumentScreen.js';
import { NotificationsScreen } from './screens/notifications/NotificationsScreen.js';
import { WebhooksScreen } from './screens/webhooks/WebhooksScreen.js';
import { SubscriptionScreen } from './screens/webhooks/SubscriptionScreen.js';
import { ApiKeysScreen } from './screens/api-keys/ApiKeysScreen.js';
import { InspectorScreen } from './screens/inspector/InspectorScreen.js';
import { ReceiverScreen } from './screens/receiver/ReceiverScreen.js';
import { NotFoundScreen } from './screens/NotFoundScreen.js';

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

export function routeFor({ path, search }: AppLocation): ReactNode {
  if (path === '/') return <Redirect to={href('/documents')} />;
  if (path === '/documents') {
    const id = search.get('d');
    return id ? <DocumentScreen key={id} id={id} /> : <DocumentsScreen />;
  }
  if (path === '/notifications') return <NotificationsScreen />;
  if (path === '/settings' || path === '/settings/integrations') return <Redirect to={href('/settings/webhooks')} />;
  if (path === '/settings/webhooks') return <WebhooksScreen />;
  const sub = /^\/settings\/webhooks\/([^/]+)$/.exec(path);
  if (sub) return <SubscriptionScreen key={sub[1]} id={decodeURIComponent(sub[1])} />;
  if (path === '/settings/api-keys') return <ApiKeysScreen />;
  if (path === '/inspector') return <InspectorScreen />;
  if (path === '/receiver') return <ReceiverScreen />;
  return <NotFoundScreen path={path} />;
}
