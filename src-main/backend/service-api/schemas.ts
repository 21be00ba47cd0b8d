// The service API's request shapes, checked at the edge (http/validate.ts) before the
// domain sees them; every failure becomes 422 validation_error naming each field.
import { isIP } from 'node:net';
import { z } from 'zod';
import { checkJsonLimits, METADATA_LIMITS } from '../store/json-limits.js';
import { parseSecret } from '../delivery/signing.js';
import { ACTIONS } from '../domain/lifecycle.js';
import { classifyAddress, nonCanonicalHost } from '../net/address-policy.js';
import { EVENT_TYPES } from '@shared/api-types.js';

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

const NEVER = new Set(['metadata', 'unspecified', 'reserved']);

/**
 * https anywhere public; http only to loopback hosts (the emulator's offline receiver).
 * Addresses that are never reachable (metadata, 0.0.0.0, reserved) and addresses in
 * unusual forms are refused here; private ones at connect time (net/address-policy.ts),
 * where the user's setting and what a name resolves to are known.
 */
export function subscriptionUrlProblem(raw: string): string | null {
  if (raw.length > 2048) return 'must be at most 2048 characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  const unusual = nonCanonicalHost(raw);
  if (unusual) return unusual;
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0 && NEVER.has(classifyAddress(bare))) return `must not point at ${url.hostname}: the service never connects there`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname)) return null;
  if (url.protocol === 'http:') return 'must use https:// (http:// is accepted only for localhost, 127.0.0.0/8 and [::1])';
  return 'must be an https:// URL';
}

/** Stored normalised (lower-case host, default port and fragment dropped, path encoded): what is shown is what is connected to. */
export function normaliseUrl(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  return url.href;
}

/**
 * Metadata is kept exactly as parsed (JSON.parse makes "__proto__" an ordinary own
 * key, and nothing here copies it through an assignment that could reach a prototype).
 */
const metadata = z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
    return;
  }
  const keys = Object.keys(value);
  if (keys.length > 50) ctx.addIssue({ code: 'custom', message: `may have at most 50 keys (has ${keys.length})` });
  const long = keys.find((k) => k.length > 40);
  if (long !== undefined)
    ctx.addIssue({ code: 'custom', message: `keys may be at most 40 characters ("${long.slice(0, 40)}…" is longer)` });
  const limit = checkJsonLimits(value, METADATA_LIMITS);
  if (limit) ctx.addIssue({ code: 'custom', message: limit });
});

const title = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(255, 'must be at most 255 characters');

export const documentPatch = z
  .strictObject({ title: title.optional(), metadata: metadata.optional() })
  .refine((v) => v.title !== undefined || v.metadata !== undefined, {
    message: 'send at least one of "title" and "metadata"',
    path: ['body'],
  });

export const newSubscription = z.strictObject({
  url: z
    .string({ error: 'is required and must be a string' })
    .superRefine((v, ctx) => {
      const p = subscriptionUrlProblem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    })
    .transform(normaliseUrl),
  type: z.enum(['all', ...EVENT_TYPES], { error: `must be "all" or one of: ${EVENT_TYPES.join(', ')}` }),
  secret_key: z
    .string({ error: 'must be a string' })
    .superRefine((v, ctx) => {
      const parsed = parseSecret(v);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
    })
    .optional(),
});

export const newDocument = z.strictObject({
  title,
  recipients: z
    .array(
      z.strictObject({
        name: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
        email: z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters'),
      }),
      { error: 'must be a list of {name, email}' },
    )
    .min(1, 'needs at least one recipient')
    .max(50, 'may have at most 50 recipients'),
  metadata: metadata.optional(),
});

export const transitionBody = z.strictObject({ recipient_id: z.string({ error: 'must be a string' }).optional() });
export const action = z.enum(ACTIONS);

export const newApiKey = z.strictObject({
  role: z.enum(['admin', 'member'], { error: 'must be "admin" or "member"' }),
  company: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
  label: z.string({ error: 'must be a string' }).max(100, 'must be at most 100 characters').optional(),
});
