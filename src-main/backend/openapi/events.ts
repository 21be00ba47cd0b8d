// The webhook events: each type's payload schema and example, as the document's
// `webhooks:` entries (OpenAPI 3.1) and for the console's event catalog. Typed by
// EventType, so a new event type does not compile until it is described here.
import type { EventType } from '@shared/api-types.js';
import { exampleDocument, exampleSubscription } from './examples.js';
import { iso, object, prefixed, ref, str, type JsonSchema } from './schema-kit.js';

interface EventInfo {
  summary: string;
  data: JsonSchema;
  example: Record<string, unknown>;
}

const documentData = object({ document: ref('Document') }, [], 'The document exactly as GET /documents/{id} returned it at that moment.');
const doc = (summary: string, status: string): EventInfo => ({
  summary,
  data: documentData,
  example: { document: { ...exampleDocument, status } },
});

export const EVENT_INFO: Record<EventType, EventInfo> = {
  'document.created': doc('A document was created (test helper create).', 'DRAFT'),
  'document.sent': doc('The document was sent out for signature.', 'OUT_FOR_SIGNATURE'),
  'document.viewed': doc('A recipient opened the document.', 'OUT_FOR_SIGNATURE'),
  'document.recipient_completed': doc('A recipient signed.', 'OUT_FOR_SIGNATURE'),
  'document.completed': doc('The last recipient signed: the document is complete.', 'COMPLETED'),
  'document.declined': doc('A recipient declined to sign.', 'DECLINED'),
  'document.expired': doc('The document expired unsigned.', 'EXPIRED'),
  'document.voided': doc('The sender voided the document.', 'VOIDED'),
  'document.updated': doc("The document's title or metadata changed (PUT /documents/{id}).", 'OUT_FOR_SIGNATURE'),
  'document.reminded': doc('Recipients who have not signed were reminded.', 'OUT_FOR_SIGNATURE'),
  'webhook.test': {
    summary: 'A test event (POST /v2/webhooks/{id}/test), sent to one subscription whatever its type.',
    data: object({ subscription: ref('Subscription'), message: str() }),
    example: { subscription: exampleSubscription, message: 'This is a test event sent from Countersign.' },
  },
  'webhook.disabled': {
    summary:
      "A subscription was disabled (410 Gone, failing for days, or by hand); sent to the company's other subscriptions that listen for it.",
    data: object({ subscription: ref('Subscription'), reason: str() }),
    example: {
      subscription: {
        ...exampleSubscription,
        status: 'disabled',
        disabled_reason: 'The endpoint answered 410 Gone at 2026-11-22T10:40:00.000Z.',
        disabled_at: '2026-11-22T10:40:00.000Z',
      },
      reason: 'The endpoint answered 410 Gone at 2026-11-22T10:40:00.000Z.',
    },
  },
};

/** The schema name of an event type's delivery body, e.g. DocumentCompletedEvent. */
export const eventSchemaName = (type: string): string =>
  type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('') + 'Event';

/** One delivery body of `type`, with an example id and timestamp. */
export function exampleEvent(type: EventType): Record<string, unknown> {
  return { id: 'evt_e7M3ALhpUShl4MLedGLLlp', type, timestamp: '2026-11-22T10:33:01.115Z', data: EVENT_INFO[type].example };
}

export function eventSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(EVENT_INFO).map(([type, info]) => [
      eventSchemaName(type),
      {
        ...object({
          id: prefixed('evt_', 'The same for every subscription that receives this event.'),
          type: { const: type },
          timestamp: iso(),
          data: info.data,
        }),
        description: info.summary,
        examples: [exampleEvent(type as EventType)],
      },
    ]),
  );
}

const signatureHeaders = {
  'webhook-id': { required: true, description: 'The delivery id (`msg_…`); the same on every attempt.', schema: { type: 'string' } },
  'webhook-timestamp': { required: true, description: 'Unix seconds when this attempt was signed.', schema: { type: 'string' } },
  'webhook-signature': {
    required: true,
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` signatures (Standard Webhooks).',
    schema: { type: 'string' },
  },
};

/** The `webhooks:` entries: what Countersign POSTs to a subscription's url for each event type. */
export function webhookEntries(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(EVENT_INFO).map(([type, info]) => [
      type,
      {
        post: {
          operationId: `event_${type.replace(/\./g, '_')}`,
          summary: info.summary,
          tags: ['Events'],
          parameters: Object.entries(signatureHeaders).map(([name, h]) => ({ name, in: 'header', ...h })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(eventSchemaName(type)), example: exampleEvent(type as EventType) } },
          },
          responses: {
            '2XX': { description: 'Accepted: the delivery succeeded. Anything else (or no answer in time) is retried.' },
          },
        },
      },
    ]),
  );
}
