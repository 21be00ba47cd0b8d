// Settings → Integrations → Webhooks: the creation form. Labels are those of the
// service's web application ("Endpoint URL", "Subscription type", "Create
// subscription"); the API's validation errors appear next to the field they name and
// clear when the field is filled by a button. A URL already subscribed is said at once.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { allSubscriptionsQuery, useCreateSubscription } from '../../api/webhooks.js';
import { ApiRequestError } from '../../api/errors.js';
import type { CreatedSubscription, SubscriptionType } from '@shared/api-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { SubscriptionTypeSelect } from '../../components/SubscriptionTypeSelect.js';
import { fingerprintOf, rememberFingerprint } from './fingerprint.js';

export interface Created {
  subscription: CreatedSubscription;
  fingerprint: string;
}

export function CreateSubscriptionForm({
  onCreated,
  suggestion,
  suggestionLabel = 'Use the local receiver',
}: {
  onCreated: (c: Created) => void;
  suggestion?: string;
  suggestionLabel?: string;
}) {
  const [url, setUrl] = useState('');
  const [type, setType] = useState<SubscriptionType>('all');
  const create = useCreateSubscription();
  const err = create.error instanceof ApiRequestError ? create.error : undefined;
  const urlError = err?.fieldMessage('url');
  const typeError = err?.fieldMessage('type');
  const otherError = create.error != null && !urlError && !typeError;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { url: url.trim(), type },
      {
        onSuccess: async (subscription) => {
          const fingerprint = await fingerprintOf(subscription.secret_key);
          rememberFingerprint(subscription.public_id, fingerprint);
          setUrl('');
          setType('all');
          onCreated({ subscription, fingerprint });
        },
      },
    );
  };

  return (
    <form className="create-form" onSubmit={submit} noValidate aria-label="New subscription">
      <Field
        label="Endpoint URL"
        error={urlError}
        hint="https:// anywhere; http:// only for localhost and 127.0.0.1."
        className="field-grow"
      >
        <input
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/webhooks"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <Field label="Subscription type" error={typeError}>
        <SubscriptionTypeSelect value={type} onChange={setType} />
      </Field>
      <div className="create-form-submit">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create subscription'}
        </button>
        {suggestion && !url && (
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => {
              setUrl(suggestion);
              create.reset(); // the old error was about another URL
            }}
          >
            {suggestionLabel}
          </button>
        )}
      </div>
      <AlreadySubscribed url={url.trim()} />
      {otherError && (
        <div className="create-form-error">
          <ErrorNotice error={create.error} title="The subscription was not created." />
        </div>
      )}
    </form>
  );
}

/** Subscribing a URL twice sends every event twice: said before it is done, with each subscription's id and type. */
function AlreadySubscribed({ url }: { url: string }) {
  const subs = useQuery(allSubscriptionsQuery());
  const already = url ? (subs.data ?? []).filter((s) => s.url === url) : [];
  if (already.length === 0) return null;
  return (
    <p className="notice notice-warning create-form-error" role="status">
      This URL is already subscribed ({already.map((s) => `${s.public_id}, ${s.type}`).join('; ')}). Another subscription sends it every
      matching event a second time.
    </p>
  );
}
