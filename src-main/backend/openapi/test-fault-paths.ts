// /v2/test_helpers/webhooks/{id}/faults: deliberate faults on one subscription's
// deliveries (docs/api.md, "Deliberate faults"). Admin keys only; an emulator extra,
// never part of /v2/webhooks.
import { faultsBody } from '../service-api/fault-routes.js';
import { exampleSubscription } from './examples.js';
import { adminOnly, errors, json, jsonBody, pathParam, type PathItem } from './operation-kit.js';
import { fromZod, ref } from './schema-kit.js';

const tags = ['Test helpers'];
const id = pathParam('id', 'The subscription id (`wh_…`).', exampleSubscription.public_id);
const example = {
  object: 'webhook_faults',
  subscription_id: exampleSubscription.public_id,
  faults: { duplicate: { share: 0.5 }, stale_timestamp: { seconds: 900 } },
};
const view = (description: string) => json(ref('WebhookFaults'), description, example);

export const testFaultPaths: Record<string, PathItem> = {
  '/v2/test_helpers/webhooks/{id}/faults': {
    get: {
      operationId: 'getWebhookFaults',
      tags,
      summary: "Read a subscription's deliberate faults",
      description: `Each key present is a fault its deliveries carry. ${adminOnly}`,
      parameters: [id],
      responses: { '200': view('The faults.'), ...errors({ id: true }) },
    },
    put: {
      operationId: 'setWebhookFaults',
      tags,
      summary: "Replace a subscription's deliberate faults",
      description: `Replaces the whole set; \`{}\` clears it. Each fault takes \`share\` (0 to 1, default 1). ${adminOnly}`,
      parameters: [id],
      requestBody: jsonBody(fromZod(faultsBody), { duplicate: { share: 0.5 }, stale_timestamp: { seconds: 900 } }),
      responses: { '200': view('The faults now.'), ...errors({ id: true, body: true }) },
    },
    delete: {
      operationId: 'clearWebhookFaults',
      tags,
      summary: "Clear a subscription's deliberate faults",
      description: adminOnly,
      parameters: [id],
      responses: { '204': { description: 'Cleared.' }, ...errors({ id: true }) },
    },
  },
};
