// The secrets that sign a subscription's deliveries now, by fingerprint (never the
// secret): on the subscription screen and in the inspector's delivery detail.
import { useQuery } from '@tanstack/react-query';
import { subscriptionSecretsQuery } from '../../api/webhooks.js';
import { Badge } from '../../components/Badge.js';
import { Time } from '../../components/Time.js';

export function LiveSecrets({ subscriptionId }: { subscriptionId: string }) {
  const q = useQuery(subscriptionSecretsQuery(subscriptionId));
  if (q.isError) return <span className="subtle">not available</span>;
  if (!q.data) return <span className="subtle">…</span>;
  return (
    <ul className="secret-list" aria-label="Live signing secrets">
      {q.data.secrets.map((s) => (
        <li key={s.fingerprint}>
          <span className="mono">{s.fingerprint}</span> <Badge tone={s.role === 'current' ? 'success' : 'warning'}>{s.role}</Badge>
          {s.expires_at && (
            <span className="subtle">
              {' '}
              signs until <Time iso={s.expires_at} mode="exact" />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
