// Standard Webhooks signing (docs/api.md section 12, standardwebhooks.com). A pure
// module: no I/O, no clock unless the caller leaves `now` out, no randomness (secret
// generation lives in secret-generate.ts and is only re-exported here).
// Guards against: forged or replayed deliveries (HMAC-SHA256 over id.timestamp.body,
// a timestamp tolerance window), timing attacks on verification (constant-time
// comparison), and malformed secrets silently signing with a wrong key (parseSecret
// rejects anything that is not `whsec_` + standard base64 of 24..64 bytes).
import { createHash, createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { systemClock } from '../clock.js';
import { HmacKey } from './hmac-key.js';

export { generateSecret } from './secret-generate.js';

export const SECRET_PREFIX = 'whsec_';
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;
/** Default verification window, as the reference libraries use: 5 minutes either way. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
export const USER_AGENT = 'Countersign-Webhooks/0.1';

/** A secret in any form signPayload accepts: the `whsec_…` string, its decoded bytes, or a prepared key. */
export type SigningSecret = string | Uint8Array | KeyObject | HmacKey;

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type ParsedSecret = { ok: true; key: Buffer; reason?: undefined } | { ok: false; reason: string; key?: undefined };

/** Validates `whsec_` + standard base64 of 24..64 bytes; returns the decoded key bytes or a reason for a person. */
export function parseSecret(secret: string): ParsedSecret {
  if (typeof secret !== 'string') return { ok: false, reason: 'must be a string' };
  if (!secret.startsWith(SECRET_PREFIX)) return { ok: false, reason: `must start with "${SECRET_PREFIX}"` };
  const b64 = secret.slice(SECRET_PREFIX.length);
  if (b64.length === 0 || !STRICT_BASE64.test(b64)) return { ok: false, reason: `must be "${SECRET_PREFIX}" followed by standard base64` };
  const key = Buffer.from(b64, 'base64');
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES) {
    return { ok: false, reason: `must encode ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} bytes (this one encodes ${key.length})` };
  }
  return { ok: true, key };
}

/**
 * Decodes a secret for signing. Lenient like the reference libraries (the prefix is
 * optional) so that a stored secret always signs the way receivers verify it; use
 * parseSecret to validate input.
 */
export function decodeSecret(secret: string): Buffer {
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(b64, 'base64');
  if (key.length === 0) throw new TypeError('webhook secret is empty');
  return key;
}

/** A reusable key for signing many deliveries (hmac-key.ts): the secret decoded and its HMAC pads worked out once. */
export function signingKey(secret: string | Uint8Array): HmacKey {
  return new HmacKey(typeof secret === 'string' ? decodeSecret(secret) : secret);
}

function keyOf(secret: SigningSecret): KeyObject | Uint8Array | HmacKey {
  return typeof secret === 'string' ? decodeSecret(secret) : secret;
}

/** The raw base64 HMAC-SHA256 over `${msgId}.${timestamp}.${body}`. */
function hmacBase64(key: KeyObject | Uint8Array | HmacKey, msgId: string, timestamp: number | string, body: string | Uint8Array): string {
  if (key instanceof HmacKey)
    return typeof body === 'string' ? key.sign(`${msgId}.${timestamp}.${body}`) : key.sign(`${msgId}.${timestamp}.`, body);
  const h = createHmac('sha256', key);
  if (typeof body === 'string') h.update(`${msgId}.${timestamp}.${body}`);
  else h.update(`${msgId}.${timestamp}.`).update(body);
  return h.digest('base64');
}

export interface SignInput {
  /**
   * One secret, or several (during a rotation: old first, then new; the faults helper's
   * "dual signature" and "wrong secret"): one `v1,` signature each, space separated.
   */
  secret: SigningSecret | readonly SigningSecret[];
  /** The webhook-id (the delivery id, the same on every retry). */
  msgId: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The exact bytes sent. */
  body: string | Uint8Array;
}

/**
 * The webhook-signature header: `v1,<base64 HMAC-SHA256>` per secret, in the order
 * given, space separated (Standard Webhooks: a receiver accepts any one that matches).
 * The one place a delivery is signed.
 */
export function signPayload(input: SignInput): string {
  // One secret, the usual case (once per delivery attempt): no list to build and join.
  if (!Array.isArray(input.secret))
    return `v1,${hmacBase64(keyOf(input.secret as SigningSecret), input.msgId, input.timestamp, input.body)}`;
  const secrets = input.secret as readonly SigningSecret[];
  if (secrets.length === 0) throw new TypeError('at least one secret is needed to sign');
  return secrets.map((secret) => `v1,${hmacBase64(keyOf(secret), input.msgId, input.timestamp, input.body)}`).join(' ');
}

/**
 * How a person tells secrets apart without seeing them: the first 8 hex characters of
 * SHA-256 over the `whsec_…` string (the same the console and the receiver's verdicts show).
 */
export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}

export interface WebhookHeaders {
  'content-type': 'application/json';
  'user-agent': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  [name: string]: string;
}

/** The headers of one attempt: a fresh object each time (it is also what the attempt log records). */
export function webhookHeaders(input: SignInput): WebhookHeaders {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': input.msgId,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signPayload(input),
  };
}

export interface VerifyInput {
  secret: SigningSecret;
  /** Header values as received (names are up to the caller). */
  msgId: string | undefined;
  timestamp: string | undefined;
  /** One or more space-separated `v1,<base64>` entries; other versions are ignored. */
  signature: string | undefined;
  body: string | Uint8Array;
  /** Accepted clock difference either way, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Unix seconds "now"; defaults to the system clock (pass it to stay pure in tests). */
  now?: number;
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason:
        'missing_headers' | 'invalid_timestamp' | 'timestamp_too_old' | 'timestamp_too_new' | 'no_matching_signature' | 'invalid_secret';
    };

/** Checks a delivery the way the Standard Webhooks libraries do, without throwing. */
export function verifySignature(input: VerifyInput): VerifyResult {
  const { msgId, timestamp, signature } = input;
  if (!msgId || !timestamp || !signature) return { ok: false, reason: 'missing_headers' };
  if (!/^\d{1,15}$/.test(timestamp)) return { ok: false, reason: 'invalid_timestamp' };
  const ts = Number(timestamp);
  const now = input.now ?? Math.floor(systemClock.now() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (now - ts > tolerance) return { ok: false, reason: 'timestamp_too_old' };
  if (ts - now > tolerance) return { ok: false, reason: 'timestamp_too_new' };
  let key: KeyObject | Uint8Array | HmacKey;
  try {
    key = keyOf(input.secret);
  } catch {
    return { ok: false, reason: 'invalid_secret' };
  }
  const expected = Buffer.from(hmacBase64(key, msgId, timestamp, input.body), 'latin1');
  let matched = false;
  for (const entry of signature.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'latin1');
    // Lengths are public (a SHA-256 digest is always 44 base64 characters); the
    // contents are compared in constant time, and every entry is checked.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? { ok: true, timestamp: ts } : { ok: false, reason: 'no_matching_signature' };
}
