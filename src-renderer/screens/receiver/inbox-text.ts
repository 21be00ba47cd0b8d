// Words and defaults shared by the receiver screen's parts.
import type { Inbox, ResponseMode, TunnelView } from '@shared/receiver-types.js';
import { tunnelErrorWords } from './tunnel-error.js';

export const DEFAULT_MODE: ResponseMode = { mode: 'status', status: 200 };

/** How the inbox verifies, in one line. */
export function secretText(inbox: Inbox): string {
  const s = inbox.secret;
  if (s.source === 'pasted') return `Pasted secret, fingerprint ${s.fingerprint}`;
  if (s.source === 'linked') {
    const n = s.linked_subscription_ids.length;
    return `Linked to ${n === 1 ? 'subscription' : `${n} subscriptions`} ${s.linked_subscription_ids.join(', ')}, fingerprint ${s.fingerprint}`;
  }
  return 'No secret: requests cannot be verified (paste one, or subscribe this inbox)';
}

/** The tunnel's state said plainly. */
export function tunnelText(t: Pick<TunnelView, 'status' | 'public_url' | 'message'>): { title: string; tone: string; detail: string } {
  switch (t.status) {
    case 'online':
      return { title: 'Online', tone: 'success', detail: `Public URL ${t.public_url ?? ''}: inboxes answer there too.` };
    case 'connecting':
      return { title: 'Connecting…', tone: 'info', detail: 'Connecting to ngrok.' };
    case 'error':
      return { title: 'Error', tone: 'danger', detail: tunnelErrorWords(t.message).words };
    case 'off':
      return { title: 'Off', tone: 'neutral', detail: 'An authtoken is set; the tunnel is stopped. The receiver works on its local URL.' };
    case 'offline':
    default:
      return {
        title: 'Offline',
        tone: 'muted',
        detail: 'Offline: the receiver works on its local URL. Give an ngrok authtoken to get a public HTTPS URL.',
      };
  }
}
