// /v2/webhooks: subscriptions, the delivery log, redeliver and test events (docs/api.md
// sections 6 and 7). Admin keys only.
import { newSubscription } from '../service-api/schemas.js';
import { exampleDelivery, exampleSubscription } from './examples.js';
import { adminOnly, errors, json, jsonBody, pagingParams, pathParam, type PathItem } from './operation-kit.js';
import { fromZod, ref } from './schema-kit.js';

const tags = ['Webhooks'];
const id = pathParam('id', 'The subscription id (`wh_…`).', exampleSubscription.public_id);
const deliveryId = pathParam('delivery_id', 'The delivery id (`msg_…`, the webhook-id header).', exampleDelivery.id);

export const webhooksPaths: Record<string, PathItem> = {
  '/v2/webhooks': {
    get: {
      operationId: 'listSubscriptions',
      tags,
      summary: 'List subscriptions',
      description: `Oldest first. ${adminOnly}`,
      parameters: pagingParams,
      responses: { '200': json(ref('SubscriptionPage'), 'A page of subscriptions.'), ...errors({ query: true }) },
    },
    post: {
      operationId: 'createSubscription',
      tags,
      summary: 'Create a subscription',
      description: `The answer is the only one that carries the secret. ${adminOnly}`,
      requestBody: jsonBody(fromZod(newSubscription), { url: exampleSubscription.url, type: 'all' }),
      responses: {
        '201': json(ref('CreatedSubscription'), 'Created.', {
          ...exampleSubscription,
          secret_key: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        }),
        ...errors({ body: true }),
      },
    },
  },
  '/v2/webhooks/{id}': {
    get: {
      operationId: 'getSubscription',
      tags,
      summary: 'Get a subscription',
      parameters: [id],
      responses: { '200': json(ref('Subscription'), 'The subscription.', exampleSubscription), ...errors({ id: true }) },
    },
    delete: {
      operationId: 'deleteSubscription',
      tags,
      summary: 'Delete a subscription',
      description: 'Its pending deliveries are cancelled in the same write.',
      parameters: [id],
      responses: { '204': { description: 'Deleted.' }, ...errors({ id: true, writes: true }) },
    },
  },
  '/v2/webhooks/{id}/deliveries': {
    get: {
      operationId: 'listDeliveries',
      tags,
      summary: "List a subscription's deliveries",
      description: 'Newest first.',
      parameters: [id, ...pagingParams],
      responses: { '200': json(ref('DeliveryPage'), 'A page of deliveries.'), ...errors({ id: true, query: true }) },
    },
  },
  '/v2/webhooks/{id}/deliveries/{delivery_id}': {
    get: {
      operationId: 'getDelivery',
      tags,
      summary: 'Get one delivery with its attempts',
      parameters: [id, deliveryId],
      responses: { '200': json(ref('DeliveryWithAttempts'), 'The delivery and every attempt.'), ...errors({ id: true }) },
    },
  },
  '/v2/webhooks/{id}/deliveries/{delivery_id}/redeliver': {
    post: {
      operationId: 'redeliver',
      tags,
      summary: 'Redeliver',
      description:
        'Queues a new attempt of the same delivery (same webhook-id) now, whether it succeeded, failed or is pending. A cancelled delivery belongs to a deleted subscription, whose routes answer 404.',
      parameters: [id, deliveryId],
      responses: {
        '202': json(ref('Delivery'), 'Queued: the delivery, now pending.', { ...exampleDelivery, status: 'pending' }),
        ...errors({ id: true, body: true, conflict: true }),
      },
    },
  },
  '/v2/webhooks/{id}/test': {
    post: {
      operationId: 'sendTestEvent',
      tags,
      summary: 'Send a test event',
      description: 'A `webhook.test` event to this one subscription, whatever its type.',
      parameters: [id],
      responses: { '202': json(ref('TestEventResult'), 'Queued.'), ...errors({ id: true, body: true }) },
    },
  },
};
