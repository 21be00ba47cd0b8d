// Which secret an inbox verifies with, by fingerprint only (never the secret itself),
// and a plain warning when it is not a whsec_ secret.
import type { Inbox } from '@shared/receiver-types.js';
import { secretText } from './inbox-text.js';

export function SecretState({ inbox }: { inbox: Inbox }) {
  return (
    <span className="secret-state">
      <span className={inbox.secret.source === 'none' ? 'subtle' : undefined}>{secretText(inbox)}</span>
      {inbox.secret.format_ok === false && <span className="badge badge-warning">not a whsec_ secret</span>}
    </span>
  );
}
