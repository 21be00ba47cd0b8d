// Small builders for the JSON Schema (2020-12, as OpenAPI 3.1 uses it) that the
// OpenAPI document is written in, so each area's file reads like the shapes it states.
import type { z } from 'zod';
import { toJSONSchema } from 'zod';

export type JsonSchema = Record<string, unknown>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
export const iso = (description?: string): JsonSchema => ({ type: 'string', format: 'date-time', ...(description ? { description } : {}) });
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) });
export const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });
export const prefixed = (prefix: string, description?: string): JsonSchema => ({
  type: 'string',
  pattern: `^${prefix}`,
  ...(description ? { description } : {}),
});

/** A closed object: every property listed is required unless named in `optional`. */
export function object(properties: Record<string, JsonSchema>, optional: string[] = [], description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

export const pageOf = (item: string): JsonSchema =>
  object({ data: { type: 'array', items: ref(item) }, has_more: { type: 'boolean' } }, [], `A page of ${item} objects.`);

/**
 * A request body's schema from the zod schema the route validates with (one source).
 * Custom checks zod cannot express (metadata's limits, the URL rule) stay in the prose;
 * a custom value is stated as a JSON object.
 */
export function fromZod(schema: z.ZodType): JsonSchema {
  const json = toJSONSchema(schema, {
    unrepresentable: 'any',
    io: 'input',
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === 'custom') Object.assign(ctx.jsonSchema, { type: 'object' });
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}
