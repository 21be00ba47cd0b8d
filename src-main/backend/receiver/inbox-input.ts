// Validation of inbox input at the edge (console API bodies and imported files).
import { z } from 'zod';
import { parse } from '../http/validate.js';
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
  // Where to is checked against the loopback rule by the registry (forward-target.ts), which knows the setting.
  z.strictObject({ mode: z.literal('forward'), url: z.string().trim().min(1).max(2048) }),
]);

const name = z.string().trim().min(1).max(100);
// Any text is accepted here: a secret that is not `whsec_…` is kept so that the verdict
// can say so plainly (invalid_secret_format) instead of the user never seeing why.
const secret = z.string().trim().min(1).max(500).nullable();

/** The body of POST and PATCH /inboxes (every field optional in both). */
export const inboxInputSchema = z.strictObject({
  name: name.optional(),
  secret: secret.optional(),
  response: responseModeSchema.optional(),
});

export type CreateInboxInput = z.infer<typeof inboxInputSchema>;
export type UpdateInboxInput = CreateInboxInput;

export function parseResponseMode(value: unknown): ResponseMode {
  return parse(responseModeSchema, value, 'response') as ResponseMode;
}
