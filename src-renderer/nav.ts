// The console's navigation, as data. Screens of other parts (the delivery inspector,
// the receiver) add their entries here and their routes in routes.tsx.
import { href } from './router.js';

export interface NavItem {
  label: string;
  to: string;
  /** Matches the in-app path (without /app) this entry stands for. */
  match: (path: string) => boolean;
}

export interface NavGroup {
  label?: string;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  {
    items: [
      { label: 'Documents', to: href('/documents'), match: (p) => p === '/documents' || p === '/' },
      { label: 'Notifications', to: href('/notifications'), match: (p) => p === '/notifications' },
    ],
  },
  {
    label: 'Webhooks',
    items: [
      { label: 'Inspector', to: href('/inspector'), match: (p) => p === '/inspector' },
      { label: 'Receiver', to: href('/receiver'), match: (p) => p === '/receiver' },
    ],
  },
  {
    label: 'Settings',
    items: [
      { label: 'Webhooks', to: href('/settings/webhooks'), match: (p) => p.startsWith('/settings/webhooks') },
      { label: 'API keys', to: href('/settings/api-keys'), match: (p) => p === '/settings/api-keys' },
    ],
  },
];
