// The objects the service API answers with, as JSON Schema: the same shapes as the wire
// types in src-shared/api-types.ts (the values come from its constants), closed so that
// a field the document does not state fails the API tests' response check.
import { DOCUMENT_STATUSES, EVENT_TYPES, FAULT_NAMES } from '@shared/api-types.js';
import { faultsBody } from '../service-api/fault-routes.js';
import { ERROR_STATUS } from '../errors.js';
import { fromZod, int, iso, nullable, object, pageOf, prefixed, ref, str, type JsonSchema } from './schema-kit.js';

const headers: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };

const recipient = object({
  public_id: prefixed('rcp_'),
  name: str(),
  email: str(),
  role: { const: 'signer' },
  status: { enum: ['pending', 'viewed', 'completed', 'declined'] },
  completed_at: nullable(iso()),
});

const document = object({
  public_id: prefixed('doc_'),
  title: str(),
  status: { enum: [...DOCUMENT_STATUSES] },
  recipients: { type: 'array', items: ref('Recipient') },
  metadata: { type: 'object', description: 'Your own keys and values, kept as sent.' },
  url: { type: 'string', format: 'uri', description: 'The document in the console.' },
  created_at: iso(),
  updated_at: iso(),
});

const subscriptionProps: Record<string, JsonSchema> = {
  public_id: prefixed('wh_'),
  url: { type: 'string', format: 'uri' },
  type: { enum: ['all', ...EVENT_TYPES] },
  status: { enum: ['enabled', 'disabled'] },
  created_at: iso(),
  disabled_reason: str('Only when disabled: why (410 Gone, failing for days, or by hand).'),
  disabled_at: iso('Only when disabled: when.'),
};
const subscriptionOptional = ['disabled_reason', 'disabled_at'];

const deliveryProps: Record<string, JsonSchema> = {
  id: prefixed('msg_', 'The delivery id, also its webhook-id header.'),
  event_id: prefixed('evt_'),
  event_type: { enum: [...EVENT_TYPES] },
  subscription_id: prefixed('wh_'),
  document_id: nullable(str()),
  url: str(),
  status: { enum: ['pending', 'succeeded', 'failed', 'cancelled', 'skipped'] },
  attempts: int(),
  created_at: iso(),
  last_attempt_at: nullable(iso()),
  last_status_code: nullable(int()),
  last_error: nullable(str()),
  last_duration_ms: nullable({ type: 'number' }),
  next_attempt_at: nullable(iso()),
};

const attempt = object(
  {
    delivery_id: prefixed('msg_'),
    subscription_id: prefixed('wh_'),
    attempt: { type: 'integer', minimum: 1 },
    started_at: iso(),
    duration_ms: { type: 'number' },
    request: object({ method: { const: 'POST' }, url: str(), headers, body: str() }),
    response: nullable(object({ status: int(), headers, body: str(), truncated: { type: 'boolean' } })),
    error: nullable(str()),
    succeeded: { type: 'boolean' },
    next_attempt_at: nullable(iso()),
    rule: { enum: ['success', 'backoff', 'retry_after', 'exhausted', 'gone', 'disabled'], description: 'Which delivery rule applied.' },
    rule_detail: str('The rule in words.'),
    slowed_down: { const: true, description: '429/502/504: the subscription was slowed down.' },
    faults: {
      type: 'array',
      items: { enum: [...FAULT_NAMES] },
      description: 'The deliberate faults this attempt carried (test helpers); absent on an ordinary attempt.',
    },
    tunnel_offline: {
      const: true,
      description:
        "A failed attempt to one of the receiver's tunnel URLs (current or past public URL) made while the tunnel was not online.",
    },
  },
  ['rule', 'rule_detail', 'slowed_down', 'faults', 'tunnel_offline'],
);

const liveSecret = object({
  fingerprint: str('The first 8 hex characters of SHA-256 over the `whsec_…` string.'),
  role: { enum: ['current', 'previous'] },
  expires_at: nullable(iso('When a previous secret stops signing.')),
});
const secretsProps: Record<string, JsonSchema> = {
  subscription_id: prefixed('wh_'),
  secrets: { type: 'array', items: ref('LiveSecret') },
};

const apiKeyProps: Record<string, JsonSchema> = {
  id: prefixed('key_'),
  role: { enum: ['admin', 'member'] },
  label: str(),
  hint: str("The key's last characters, to tell keys apart."),
  company: object({ id: prefixed('co_'), name: str() }),
  created_at: iso(),
};

const errorSchema = object(
  {
    error: object(
      {
        code: { enum: Object.keys(ERROR_STATUS) },
        message: str('For a person; the wording may change.'),
        details: { type: 'object', description: 'Only for the codes docs/api.md section 5 names: `fields` for 422, `status` for 409.' },
      },
      ['details'],
    ),
  },
  [],
  'The one error shape of every route.',
);

export const componentSchemas: Record<string, JsonSchema> = {
  Error: errorSchema,
  FieldError: object({ field: str(), message: str() }),
  Recipient: recipient,
  Document: document,
  Subscription: object(subscriptionProps, subscriptionOptional),
  CreatedSubscription: object(
    { ...subscriptionProps, secret_key: prefixed('whsec_', 'Shown only in this answer.') },
    subscriptionOptional,
    'The only answer that ever carries the secret.',
  ),
  SubscriptionPage: pageOf('Subscription'),
  Delivery: object(deliveryProps),
  DeliveryPage: pageOf('Delivery'),
  Attempt: attempt,
  DeliveryWithAttempts: object({ ...deliveryProps, attempt_log: { type: 'array', items: ref('Attempt') } }),
  TestEventResult: object({
    delivery_id: prefixed('msg_'),
    event_id: prefixed('evt_'),
    subscription_id: prefixed('wh_'),
    status: { const: 'pending' },
  }),
  LiveSecret: liveSecret,
  SubscriptionSecrets: object(secretsProps, [], 'The secrets that sign now, by fingerprint (never the secrets).'),
  RotatedSecret: object(
    { ...secretsProps, secret_key: prefixed('whsec_', 'The new secret; shown only in this answer.') },
    [],
    'A rotation: the new secret once, and the live secrets.',
  ),
  RecoverResult: object({
    subscription_id: prefixed('wh_'),
    since: iso(),
    delivery_ids: { type: 'array', items: prefixed('msg_'), description: 'The deliveries sent again, oldest first.' },
  }),
  RemindResult: object({ document_id: prefixed('doc_'), reminded: { type: 'array', items: prefixed('rcp_') }, reminded_at: iso() }),
  WebhookFaults: object(
    {
      object: { const: 'webhook_faults' },
      subscription_id: prefixed('wh_'),
      faults: fromZod(faultsBody),
    },
    [],
    "A subscription's deliberate faults (an emulator extra).",
  ),
  TestClock: object(
    {
      object: { const: 'test_clock' },
      now: iso("The service's time."),
      frozen: { type: 'boolean' },
      offset_seconds: int("How far the service's time is ahead of the wall clock (negative behind it)."),
    },
    [],
    'The test clock: virtual time, machine-wide.',
  ),
  CreatedApiKey: object(
    { ...apiKeyProps, key: str('The key itself; shown only in this answer.') },
    ['company'],
    'A new API key: the key is returned once.',
  ),
};
