// The OpenAPI 3.1 document of the service API: assembled from one file per area, the
// shared components and the event catalog. Served at GET /openapi.json on the API
// listener and written to docs/openapi.json by `npm run openapi` (a test keeps the
// two equal). To add a route: add its operation to the area's file (see "Adding a
// route" in docs/architecture.md).
import { checkSchemas, checksPaths } from './checks-paths.js';
import { componentSchemas } from './components.js';
import { DELIVERY_SEMANTICS } from './delivery-semantics.js';
import { documentsPaths } from './documents-paths.js';
import { eventSchemas, webhookEntries } from './events.js';
import { errorResponses, json, type PathItem } from './operation-kit.js';
import { testClockPaths } from './test-clock-paths.js';
import { testFaultPaths } from './test-fault-paths.js';
import { scenarioPaths, scenarioSchemas } from './scenario-paths.js';
import { testHelperPaths } from './test-helper-paths.js';
import { testHelperWebhookPaths } from './test-helper-webhooks-paths.js';
import { inboxSchemas, testInboxPaths } from './test-inbox-paths.js';
import { connectionSchemas, testConnectionPaths } from './test-connection-paths.js';
import { webhooksPaths } from './webhooks-paths.js';

const metaPaths: Record<string, PathItem> = {
  '/openapi.json': {
    get: {
      operationId: 'getOpenApi',
      tags: ['Meta'],
      summary: 'This document',
      description: "Public like Stripe's and Svix's: no API key needed (the Host check still applies).",
      security: [],
      responses: {
        '200': json({ type: 'object' }, 'The OpenAPI 3.1 document.'),
        '403': { $ref: '#/components/responses/Error403' },
      },
    },
  },
};

let built: Record<string, unknown> | undefined;

/** The whole document (built once; treat it as read-only). */
export function openApiDocument(): Record<string, unknown> {
  built ??= {
    openapi: '3.1.0',
    info: {
      title: 'Countersign API',
      version: '2.0.0',
      description:
        "The local document-signing service: webhook subscriptions and their delivery log, documents, and the emulator's test helpers. Every error has the one shape `Error`. See docs/api.md.",
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'The default API listener (loopback only).' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Webhooks', description: 'Subscriptions, the delivery log, redelivery and test events. Admin keys only.' },
      { name: 'Documents', description: "Documents of the caller's company. Any role." },
      { name: 'Test helpers', description: "The emulator's own routes: play recipients, mint keys. Admin keys only." },
      { name: 'Events', description: 'What Countersign POSTs to subscriptions, signed with Standard Webhooks.' },
      { name: 'Meta', description: 'About the API itself.' },
    ],
    paths: {
      ...webhooksPaths,
      ...documentsPaths,
      ...testHelperPaths,
      ...testHelperWebhookPaths,
      ...testClockPaths,
      ...testFaultPaths,
      ...checksPaths,
      ...testInboxPaths,
      ...testConnectionPaths,
      ...scenarioPaths,
      ...metaPaths,
    },
    webhooks: webhookEntries(),
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      schemas: { ...componentSchemas, ...checkSchemas, ...inboxSchemas, ...connectionSchemas, ...scenarioSchemas, ...eventSchemas() },
      responses: errorResponses(),
    },
    'x-delivery-semantics': DELIVERY_SEMANTICS,
  };
  return built;
}

/** The document as docs/openapi.json holds it. */
export const openApiJson = (): string => JSON.stringify(openApiDocument(), null, 2) + '\n';
