// The built-in service's subscriptions that send to an inbox (at its local or public
// URL), each by id and type: several may share the inbox's URL, and these tell them
// apart. Each links to its subscription page.
import { useQuery } from '@tanstack/react-query';
import { allSubscriptionsQuery } from '../../api/webhooks.js';
import { LOCAL_CONNECTION } from '@shared/connection-types.js';
import type { Subscription } from '@shared/api-types.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';

/** A subscription's URL ends in this inbox's path (maybe with more path or a query below it). */
export function sendsTo(s: Subscription, inboxId: string): boolean {
  return new RegExp(`/in/${inboxId}(?:[/?#]|$)`).test(s.url);
}

export function InboxSubscriptions({ inboxId }: { inboxId: string }) {
  const subs = useQuery(allSubscriptionsQuery(LOCAL_CONNECTION));
  if (!subs.data) return <span className="subtle">…</span>;
  const mine = subs.data.filter((s) => sendsTo(s, inboxId));
  if (mine.length === 0) return <span className="subtle">none</span>;
  return (
    <ul className="inbox-subs">
      {mine.map((s) => (
        <li key={s.public_id}>
          <Link to={linkTo.subscription(s.public_id)} className="mono">
            {s.public_id}
          </Link>{' '}
          <span className="mono subtle">{s.type}</span>
          {s.status === 'disabled' && <span className="badge badge-danger">disabled</span>}
        </li>
      ))}
    </ul>
  );
}
