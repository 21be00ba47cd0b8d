// The event catalog: each webhook event type's payload schema, example and summary,
// read from the service's own OpenAPI document (GET /openapi.json, its `webhooks:`
// entries), so the catalog and the contract cannot differ. "Send example" sends the
// type's example as a real signed delivery to one subscription (a test helper).
import { queryOptions } from '@tanstack/react-query';
import { serviceApi } from './client.js';
import { eventCatalogKeys, inspectorKeys, webhookKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

export interface CatalogEvent {
  type: string;
  summary: string;
  /** The payload's JSON Schema, with the document's `$ref`s resolved one level into `components`. */
  schema: unknown;
  example: unknown;
}

// The document is read as plain JSON: its shape is what GET /openapi.json serves (checked by the tests).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document walked by key
type Json = Record<string, any>;

/** `#/components/schemas/X` → the schema, and the named schemas it refers to, for display. */
function withRefs(doc: Json, schema: Json): Json {
  const name = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : null;
  const body = name ? doc.components.schemas[name] : schema;
  const used = new Set<string>();
  JSON.stringify(body, (k, v) => (k === '$ref' && typeof v === 'string' && used.add(v.split('/').pop()!), v));
  const refs = Object.fromEntries([...used].map((n) => [n, doc.components.schemas[n]]));
  return used.size ? { ...body, $defs: refs } : body;
}

export function catalogFrom(doc: Json): CatalogEvent[] {
  return Object.entries(doc.webhooks as Json).map(([type, item]) => {
    const content = item.post.requestBody.content['application/json'];
    return { type, summary: item.post.summary as string, schema: withRefs(doc, content.schema), example: content.example };
  });
}

export const eventCatalogQuery = () =>
  queryOptions({
    queryKey: eventCatalogKeys.all,
    queryFn: async ({ client, signal }) => catalogFrom(await serviceApi<Json>('/openapi.json', { client, signal })),
    staleTime: Infinity,
  });

export const useSendExample = () =>
  useRefreshingMutation({
    mutationFn: (v: { subscription: string; type: string }, client) =>
      serviceApi<{ delivery_id: string; subscription_id: string }>(
        `/v2/test_helpers/webhooks/${encodeURIComponent(v.subscription)}/send_example`,
        { method: 'POST', body: { type: v.type }, client },
      ),
    stale: (_r, v) => [webhookKeys.detail(v.subscription), inspectorKeys.all, inspectorKeys.feeds()],
  });
