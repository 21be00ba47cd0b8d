// /v2/test_helpers/connections: the console's connections to real deployments, read by
// `countersign listen --connection` (docs/api.md, "Connections"). Never a key: only where
// it is kept. Admin keys of Demo Company only (the console's own company).
import { errors, json, type PathItem } from './operation-kit.js';
import { iso, nullable, object, prefixed, ref, str, type JsonSchema } from './schema-kit.js';

const connection = object({
  id: prefixed('conn_'),
  name: str(),
  base_url: str("The remote service's API."),
  app_url: str("The remote's web app."),
  key_source: { enum: ['keychain', 'env', 'file'], description: 'Where the key is read from.' },
  key_ref: nullable(str("The environment variable's name or the file's path; null for the keychain.")),
  created_at: iso(),
});

export const connectionSchemas: Record<string, JsonSchema> = { Connection: connection };

export const testConnectionPaths: Record<string, PathItem> = {
  '/v2/test_helpers/connections': {
    get: {
      operationId: 'listConnections',
      tags: ['Test helpers'],
      summary: "List the console's connections to real deployments (never their keys)",
      description:
        "What `countersign listen --connection <name>` reads to find a connection's `base_url` and where its key is kept; the command reads the key itself. Admin keys of Demo Company only (the console's and the command line's company): any other key is 403.",
      responses: {
        '200': json(object({ data: { type: 'array', items: ref('Connection') } }), 'Every connection.'),
        ...errors({}),
      },
    },
  },
};
