// Validation at the edge: the one translation of a zod failure into 422
// validation_error (docs/api.md section 5). Every problem is listed under its field's
// dotted path; a field the schema does not accept gets "is not a field this request
// accepts"; a problem with the value as a whole is reported under "body" (or under the
// prefix, for a value nested in something larger, such as an imported file's inbox).
import type { z } from 'zod';
import { validationError } from '../errors.js';
import type { FieldError } from '@shared/api-types.js';

export const NOT_ACCEPTED = 'is not a field this request accepts';

function toFields(issues: readonly z.core.$ZodIssue[], prefix: string): FieldError[] {
  const name = (path: readonly PropertyKey[]) => [prefix, ...path.map(String)].filter(Boolean).join('.');
  const fields: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields.push({ field: name([...issue.path, key]), message: NOT_ACCEPTED });
    } else {
      fields.push({ field: name(issue.path) || 'body', message: issue.message });
    }
  }
  return fields;
}

/** Parses `value` with `schema` or throws 422 naming every bad field. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, prefix = ''): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(toFields(result.error.issues, prefix));
  return result.data;
}
