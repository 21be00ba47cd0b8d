// The one time a subscription's signing secret is shown: copy it now, with a plain
// warning that it will not be shown again. Closing the dialog drops it from memory;
// only its fingerprint remains. In the desktop app it can also go to the OS keychain.
import { useState } from 'react';
import { webhookSecretName } from '@shared/ipc-contract.js';
import type { CreatedSubscription } from '@shared/api-types.js';
import { Modal } from '../../components/Modal.js';
import { SecretReveal } from '../../components/SecretReveal.js';
import { desktopBridge } from '../../platform.js';

export function SecretDialog({
  subscription,
  fingerprint,
  onClose,
}: {
  subscription: CreatedSubscription;
  fingerprint: string;
  onClose: () => void;
}) {
  const bridge = desktopBridge();
  const [kept, setKept] = useState<string | null>(null);
  return (
    <Modal
      title="Subscription created"
      description={
        <>
          Deliveries to <span className="mono break">{subscription.url}</span> are signed with this secret.
        </>
      }
      onClose={onClose}
      wide
      actions={
        <>
          {bridge && (
            <button
              type="button"
              className="btn"
              onClick={async () => {
                try {
                  const info = await bridge.setSecret(webhookSecretName(subscription.public_id), subscription.secret_key);
                  setKept(info.protectedByKeychain ? 'Kept in the OS keychain.' : info.note);
                } catch (e) {
                  setKept(e instanceof Error ? e.message : 'Could not keep the secret.');
                }
              }}
            >
              Keep in keychain
            </button>
          )}
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </>
      }
    >
      <SecretReveal value={subscription.secret_key} what="signing secret" kept="The console keeps only its fingerprint." />
      <p className="subtle">
        Fingerprint <span className="mono">{fingerprint}</span>: the console shows only this from now on, so you can tell which secret a
        subscription uses.
      </p>
      {kept && (
        <p role="status" className="subtle">
          {kept}
        </p>
      )}
    </Modal>
  );
}
