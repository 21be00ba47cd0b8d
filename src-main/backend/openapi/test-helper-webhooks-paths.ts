// /v2/test_helpers/webhooks/{id}/…: endpoint health, recovery and secret rotation
// (docs/api.md section 12). Emulator extras: the real service has no such routes.
import { disableBody, recoverBody, rotateBody, sendExampleBody } from '../service-api/test-helper-webhooks.js';
import { exampleSubscription } from './examples.js';
import { adminOnly, errors, json, jsonBody, pathParam, type PathItem } from './operation-kit.js';
import { fromZod, ref } from './schema-kit.js';

const tags = ['Test helpers'];
const id = pathParam('id', 'The subscription id (`wh_…`).', exampleSubscription.public_id);

export const testHelperWebhookPaths: Record<string, PathItem> = {
  '/v2/test_helpers/webhooks/{id}/send_example': {
    post: {
      operationId: 'sendExampleEvent',
      tags,
      summary: "Send an event type's example",
      description: `Queues the example of \`type\` from this document's \`webhooks:\` entry as a real signed delivery to this one subscription, whatever its type (the console's event catalog uses it). ${adminOnly}`,
      parameters: [id],
      requestBody: jsonBody(fromZod(sendExampleBody), { type: 'document.completed' }),
      responses: { '202': json(ref('TestEventResult'), 'Queued.'), ...errors({ id: true, body: true }) },
    },
  },
  '/v2/test_helpers/webhooks/{id}/disable': {
    post: {
      operationId: 'disableSubscription',
      tags,
      summary: 'Disable a subscription by hand',
      description: `Nothing is sent to it while disabled; its deliveries are kept as \`skipped\`; \`webhook.disabled\` goes to the others. ${adminOnly}`,
      parameters: [id],
      requestBody: jsonBody(fromZod(disableBody), { reason: 'redeploying' }, false),
      responses: { '200': json(ref('Subscription'), 'The subscription, disabled.'), ...errors({ id: true, body: true }) },
    },
  },
  '/v2/test_helpers/webhooks/{id}/enable': {
    post: {
      operationId: 'enableSubscription',
      tags,
      summary: 'Enable a subscription again',
      description: `New events are delivered again; what was skipped stays skipped until recovered. ${adminOnly}`,
      parameters: [id],
      requestBody: jsonBody({ type: 'object', additionalProperties: false }, {}, false),
      responses: { '200': json(ref('Subscription'), 'The subscription, enabled.'), ...errors({ id: true, body: true }) },
    },
  },
  '/v2/test_helpers/webhooks/{id}/recover': {
    post: {
      operationId: 'recoverSubscription',
      tags,
      summary: 'Recover since a time',
      description: `Sends again every \`failed\` or \`skipped\` delivery created since \`since\`, oldest first, as new attempts of the same deliveries (same webhook-id). ${adminOnly}`,
      parameters: [id],
      requestBody: jsonBody(fromZod(recoverBody), { since: '2026-11-22T10:00:00Z' }),
      responses: { '202': json(ref('RecoverResult'), 'Queued again.'), ...errors({ id: true, body: true, conflict: true }) },
    },
  },
  '/v2/test_helpers/webhooks/{id}/rotate_secret': {
    post: {
      operationId: 'rotateSubscriptionSecret',
      tags,
      summary: 'Rotate the signing secret',
      description: `A new secret, answered once; the old one keeps signing beside it for the overlap (24 h by default). ${adminOnly}`,
      parameters: [id],
      requestBody: jsonBody(fromZod(rotateBody), { overlap_seconds: 86400 }, false),
      responses: { '200': json(ref('RotatedSecret'), 'The new secret and the live secrets.'), ...errors({ id: true, body: true }) },
    },
  },
  '/v2/test_helpers/webhooks/{id}/secrets': {
    get: {
      operationId: 'subscriptionSecrets',
      tags,
      summary: 'The secrets that sign now',
      description: `By fingerprint, never the secrets. ${adminOnly}`,
      parameters: [id],
      responses: { '200': json(ref('SubscriptionSecrets'), 'The live secrets.'), ...errors({ id: true }) },
    },
  },
};
