// Builders for the operations of the OpenAPI document: the error answers every route
// shares (docs/api.md section 5, in the order the checks run), path parameters, and
// JSON bodies with examples.
import { ref, type JsonSchema } from './schema-kit.js';

export type Operation = Record<string, unknown>;
export type PathItem = Record<string, Operation>;

const ERROR_WHY: Record<number, string> = {
  400: 'A malformed percent-escape in the path (`invalid_request`), or a body that is not a JSON object (`invalid_json`).',
  401: 'No valid API key (`unauthorized`).',
  403: "A Host that is not the listener's own, or a member key on an admin route (`forbidden`).",
  404: 'No such id, or an id of another company (`not_found`).',
  409: "The document's status does not allow it (`invalid_document_status`), the delivery was imported (`delivery_imported`), or the subscription is disabled (`subscription_disabled`).",
  413: 'The body is larger than 1 MiB (`payload_too_large`).',
  415: 'A body that is not JSON, or has a Content-Encoding (`unsupported_media_type`).',
  422: 'A field or query parameter is missing, of the wrong type or out of range (`validation_error`, with `details.fields`).',
  429: 'Over the per-key rate limit (`rate_limited`); Retry-After says when to try again.',
  500: 'A defect in Countersign (`internal_error`), never caused by what was sent.',
  503: 'A change that could not be saved: the disk is full or cannot be written (`storage_unavailable`); nothing of it was kept. Retry-After says when to try again.',
};

const errorResponse = (status: number) => ({ $ref: `#/components/responses/Error${status}` });

/** The shared error responses, one per status, for components.responses. */
export function errorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ERROR_WHY).map(([status, why]) => [
      `Error${status}`,
      { description: why, content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
}

/** Which error statuses a route can answer, from what it takes (`writes`: it changes state, so a full disk is 503). */
export function errors(takes: {
  body?: boolean;
  id?: boolean;
  query?: boolean;
  conflict?: boolean;
  writes?: boolean;
}): Record<string, unknown> {
  const statuses = [400, 401, 403, 429, 500];
  if (takes.writes ?? takes.body) statuses.push(503);
  if (takes.id) statuses.push(404);
  if (takes.body) statuses.push(413, 415, 422);
  if (takes.query && !statuses.includes(422)) statuses.push(422);
  if (takes.conflict) statuses.push(409);
  return Object.fromEntries(statuses.sort().map((s) => [String(s), errorResponse(s)]));
}

export const json = (schema: JsonSchema, description: string, example?: unknown) => ({
  description,
  content: { 'application/json': { schema, ...(example !== undefined ? { example } : {}) } },
});

export const pathParam = (name: string, description: string, example: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

export const pagingParams = [
  {
    name: 'limit',
    in: 'query',
    description: 'Items per page, 1–100. Given once, as name=value.',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
  {
    name: 'starting_after',
    in: 'query',
    description: 'An id from the previous page: the items after it.',
    schema: { type: 'string' },
  },
];

/** A JSON request body; `optional` bodies may be empty (routes that take none accept an empty one). */
export const jsonBody = (schema: JsonSchema, example?: unknown, required = true) => ({
  required,
  content: { 'application/json': { schema, ...(example !== undefined ? { example } : {}) } },
});

export const adminOnly = 'Admin keys only: a member key is 403.';
