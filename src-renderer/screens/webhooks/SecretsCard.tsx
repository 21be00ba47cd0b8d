// Which secrets sign this subscription's deliveries now, by fingerprint, and "Rotate
// secret": the new secret is shown once; the old one keeps signing beside it for the
// overlap (24 h by default), so deliveries carry two signatures until then.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { RotatedSecret } from '@shared/api-types.js';
import { subscriptionSecretsQuery, useRotateSecret } from '../../api/webhooks.js';
import { Card } from '../../components/Card.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Modal } from '../../components/Modal.js';
import { SecretReveal } from '../../components/SecretReveal.js';
import { rememberFingerprint } from './fingerprint.js';
import { LiveSecrets } from './LiveSecrets.js';

export function SecretsCard({ subscriptionId }: { subscriptionId: string }) {
  const secrets = useQuery(subscriptionSecretsQuery(subscriptionId));
  const rotate = useRotateSecret(subscriptionId);
  const [shown, setShown] = useState<RotatedSecret | null>(null);
  return (
    <Card title="Signing secrets">
      <LiveSecrets subscriptionId={subscriptionId} />
      {secrets.data && secrets.data.secrets.length > 1 && (
        <p className="subtle">Deliveries carry one signature per live secret (old first), so either secret verifies them.</p>
      )}
      <button
        type="button"
        className="btn"
        disabled={rotate.isPending}
        onClick={() =>
          rotate.mutate(undefined, {
            onSuccess: (r) => {
              const current = r.secrets.find((s) => s.role === 'current');
              if (current) rememberFingerprint(subscriptionId, current.fingerprint);
              setShown(r);
            },
          })
        }
      >
        {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
      </button>
      {rotate.error != null && <ErrorNotice error={rotate.error} title="The secret was not rotated." />}
      {shown && (
        <Modal
          title="Secret rotated"
          description="New deliveries are signed with this secret, and with the old one until its window ends."
          onClose={() => setShown(null)}
          wide
          actions={
            <button type="button" className="btn btn-primary" onClick={() => setShown(null)}>
              Done
            </button>
          }
        >
          <SecretReveal value={shown.secret_key} what="new signing secret" kept="The console keeps only its fingerprint." />
        </Modal>
      )}
    </Card>
  );
}
