// The one reading of query parameters. Each parameter a route knows must come once, as
// `name=value`: a repeated one (`limit=1&limit=2`) or one in bracket form
// (`starting_after[]=x`, which would otherwise reach the route under another name and
// be silently ignored) is a 422 on that field, like any other bad value. An empty value
// is the same as none (a cleared filter). Parameters a route does not know are ignored.
import type { Request } from 'express';
import type { z } from 'zod';
import { validationError } from '../errors.js';
import type { FieldError } from '@shared/api-types.js';
import { parse } from './validate.js';

const ONCE = 'must be given once, as name=value';

/** Parses the request's query with `schema` (an object schema), or throws 422 naming each bad parameter. */
export function parseQuery<T extends z.ZodObject>(schema: T, req: Request): z.output<T> {
  const known = new Set(Object.keys(schema.shape));
  const values: Record<string, string> = {};
  const problems: FieldError[] = [];
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    const name = key.includes('[') ? key.slice(0, key.indexOf('[')) : key;
    if (!known.has(name)) continue;
    if (name !== key || typeof value !== 'string') {
      if (!problems.some((p) => p.field === name)) problems.push({ field: name, message: ONCE });
    } else if (value !== '') values[name] = value;
  }
  if (problems.length > 0) throw validationError(problems);
  return parse(schema, values);
}

/** The route's `:id` parameter (Express types allow an array, for wildcard parameters). */
export const idParam = (req: Request): string => String(req.params.id);
