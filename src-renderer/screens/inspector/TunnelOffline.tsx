// A delivery that failed to a tunnel URL of this receiver while the tunnel was not online:
// the failure is the tunnel's, not the endpoint's. The fact is recorded with each attempt
// as it was made (docs/inspector.md section 3), so it stays true after the tunnel returns.
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';

export const TUNNEL_OFFLINE_TITLE = 'Sent to a tunnel URL of this receiver while the tunnel was not online';

/** The list's and the attempt's mark. */
export function TunnelOfflineBadge() {
  return (
    <span className="badge badge-warning" title={TUNNEL_OFFLINE_TITLE}>
      tunnel down
    </span>
  );
}

/** The detail pane's line: what happened and what to do. */
export function TunnelOfflineNotice() {
  return (
    <p className="notice notice-warning" role="note">
      {/* One span: the notice is a flex row, and the link must stay inside the sentence. */}
      <span>
        The tunnel was offline when this was attempted: the URL is one of this receiver’s public tunnel URLs, so the request could not reach
        the inbox. Start the tunnel on the <Link to={linkTo.receiver()}>receiver screen</Link>; subscriptions on an old public URL move to
        the new one by themselves, then redeliver.
      </span>
    </p>
  );
}
