// Validation of inbox input at the edge (console API bodies and imported files).
import { z } from 'zod';
import { validationError } from '../errors.js';
import type { FieldError } from '@shared/api-types.js';
import type { ResponseMode } from '@shared/receiver-types.js';

const delay = z.number().int().min(0).max(300_000).optional();

export const responseModeSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('status'), status: z.number().int().min(200).max(599).default(200), delay_ms: delay }),
  z.strictObject({
    mode: z.literal('fail_first_n'),
    fail_first_n: z.number().int().min(1).max(100),
    fail_status: z.number().int().min(300).max(599).default(500),
    delay_ms: delay,
  }),
  z.strictObject({ mode: z.literal('hang') }),
  z.strictObject({ mode: z.literal('gone'), delay_ms: delay }),
  z.strictObject({ mode: z.literal('rate_limited'), retry_after: z.number().int().min(0).max(86_400).default(30), delay_ms: delay }),
]);

const name = z.string().trim().min(1).max(100);
// Any text is accepted here: a secret that is not `whsec_…` is kept so that the verdict
// can say so plainly (invalid_secret_format) instead of the user never seeing why.
const secret = z.string().trim().min(1).max(500).nullable();

export const createInboxSchema = z.strictObject({
  name: name.optional(),
  secret: secret.optional(),
  response: responseModeSchema.optional(),
});
export const updateInboxSchema = z.strictObject({
  name: name.optional(),
  secret: secret.optional(),
  response: responseModeSchema.optional(),
});

export type CreateInboxInput = z.infer<typeof createInboxSchema>;
export type UpdateInboxInput = z.infer<typeof updateInboxSchema>;

function fieldErrors(issues: z.core.$ZodIssue[], prefix = ''): FieldError[] {
  return issues.map((i) => {
    const base = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
    if (i.code === 'unrecognized_keys') {
      const keys = (i as { keys?: string[] }).keys ?? [];
      return { field: [base, keys[0]].filter(Boolean).join('.'), message: 'is not a known field' };
    }
    return { field: base || '(body)', message: i.message };
  });
}

/** Parses with the schema or throws a 422 naming every bad field. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, prefix = ''): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationError([{ field: prefix || '(body)', message: 'must be a JSON object' }]);
  }
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(fieldErrors(r.error.issues, prefix));
  return r.data;
}

export function parseResponseMode(value: unknown): ResponseMode {
  return parseInput(responseModeSchema, value, 'response') as ResponseMode;
}
