// A subscription's health: enabled or disabled (and why), Disable / Enable by hand, and
// "Recover since" (re-send every failed or skipped delivery since a time, same
// webhook-ids). Emulator extras over /v2/test_helpers/webhooks (docs/api.md section 12).
import { useState } from 'react';
import type { Subscription } from '@shared/api-types.js';
import { useRecover, useSetSubscriptionEnabled } from '../../api/webhooks.js';
import { Card } from '../../components/Card.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { SubscriptionStatusBadge } from '../../components/Badge.js';
import { Time } from '../../components/Time.js';

/** A datetime-local value an hour before now (the default "since"). */
function anHourAgo(): string {
  const d = new Date(Date.now() - 3_600_000 - new Date().getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

export function HealthCard({ sub }: { sub: Subscription }) {
  const toggle = useSetSubscriptionEnabled(sub.public_id);
  const recover = useRecover(sub.public_id);
  const [reason, setReason] = useState('');
  const [since, setSince] = useState(anHourAgo);
  const disabled = sub.status === 'disabled';
  const sinceIso = since ? new Date(since).toISOString() : '';
  return (
    <Card title="Health and recovery">
      <div className="health-state">
        <SubscriptionStatusBadge status={sub.status} />
        {disabled ? (
          <span>
            {sub.disabled_reason}
            {sub.disabled_at && (
              <span className="subtle">
                {' '}
                (<Time iso={sub.disabled_at} />)
              </span>
            )}{' '}
            New events are kept as skipped until you enable it and recover them.
          </span>
        ) : (
          <span className="subtle">Deliveries are sent. A 410 answer, or 5 days of failures, disables it.</span>
        )}
      </div>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          toggle.mutate({ enabled: disabled, reason: reason.trim() || undefined }, { onSuccess: () => setReason('') });
        }}
      >
        {!disabled && (
          <Field label="Reason (optional)">
            <input className="input" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
          </Field>
        )}
        <button type="submit" className={disabled ? 'btn btn-primary' : 'btn btn-ghost-danger'} disabled={toggle.isPending}>
          {disabled ? 'Enable' : 'Disable'}
        </button>
      </form>
      {toggle.error != null && <ErrorNotice error={toggle.error} title={disabled ? 'Not enabled.' : 'Not disabled.'} />}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (sinceIso) recover.mutate(sinceIso);
        }}
      >
        <Field label="Recover since" hint="Failed and skipped deliveries created since then are sent again, oldest first.">
          <input className="input" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required />
        </Field>
        <button type="submit" className="btn" disabled={recover.isPending || disabled || !sinceIso}>
          {recover.isPending ? 'Recovering…' : 'Recover'}
        </button>
      </form>
      {disabled && <p className="subtle">Enable the subscription to recover its deliveries.</p>}
      {recover.isSuccess && (
        <p role="status" className="notice notice-info">
          {recover.data.delivery_ids.length === 0
            ? 'Nothing to recover since then.'
            : `${recover.data.delivery_ids.length} deliver${recover.data.delivery_ids.length === 1 ? 'y' : 'ies'} queued again, oldest first.`}
        </p>
      )}
      {recover.error != null && <ErrorNotice error={recover.error} title="Nothing was recovered." />}
    </Card>
  );
}
