// Why a captured request does or does not verify, as exactly one reason. Uses the one
// Standard Webhooks implementation (delivery/signing.ts); no second HMAC here.
// Guards against misleading testers: an HMAC mismatch alone cannot tell "wrong secret"
// from "body changed", so those two are only claimed when the local delivery log says
// what was really sent (and with which subscription's secret); otherwise the verdict is
// the honest `signature_mismatch` ("a different secret, or the body was changed").
import { parseSecret, secretFingerprint, verifySignature } from '../delivery/signing.js';
import { TIMESTAMP_TOLERANCE_S } from './types.js';
import type { Verdict, VerdictReason } from '@shared/receiver-types.js';

export interface SecretCandidate {
  secret: string;
  source: 'pasted' | 'linked';
  subscription_id: string | null;
}

/** What the local delivery engine sent under a webhook-id (from the delivery log). */
export interface SentRecord {
  subscription_id: string;
  /** The sending subscription's secret, if the subscription still exists. */
  secret?: string;
  /** The exact body sent (the event's body). */
  body?: string;
}

export interface VerdictInput {
  /** Header values by lower-case name. */
  headers: Record<string, string | undefined>;
  body: Buffer;
  /** Unix seconds of arrival. */
  now: number;
  /** Pasted secret alone, or else every linked subscription's secret. */
  candidates: SecretCandidate[];
  lookupSent?: (webhookId: string) => Promise<SentRecord | undefined>;
}

/** First 8 hex characters of sha256(secret): enough to tell secrets apart, useless to sign. */
export function fingerprint(secret: string): string {
  return secretFingerprint(secret);
}

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** Checks the signature alone (the timestamp window is judged separately, after). */
function signatureMatches(secret: string, id: string, ts: string, sig: string, body: Buffer): boolean {
  return verifySignature({ secret, msgId: id, timestamp: ts, signature: sig, body, now: Number(ts) }).ok;
}

type Base = Pick<Verdict, 'secret_source' | 'subscription_id' | 'secret_fingerprint' | 'timestamp_age_s'>;
type Out = (reason: VerdictReason, message: string, extra?: Partial<Verdict>) => Verdict;

/** The signature headers' own problems (missing, malformed), before any secret is tried. */
function headerProblem(out: Out, id?: string, ts?: string, sig?: string): Verdict | null {
  if (!id && !ts && !sig)
    return out(
      'no_signature_headers',
      'No webhook-id, webhook-timestamp or webhook-signature header: the request was not signed with Standard Webhooks.',
    );
  const missing = SIGNATURE_HEADERS.filter((_, i) => ![id, ts, sig][i]);
  if (missing.length) return out('malformed_signature_headers', `Signature headers are incomplete: ${missing.join(', ')} missing.`);
  if (!/^\d{1,15}$/.test(ts!)) return out('malformed_signature_headers', `webhook-timestamp "${ts!.slice(0, 40)}" is not Unix seconds.`);
  if (!sig!.split(' ').some((e) => e.startsWith('v1,') && e.length > 3)) {
    return out('malformed_signature_headers', 'webhook-signature has no "v1,<base64>" entry.');
  }
  return null;
}

/** No candidate matched: what the local delivery log can tell about why. */
async function explainMismatch(
  out: Out,
  base: Base,
  input: VerdictInput,
  id: string,
  ts: string,
  sig: string,
  late: string,
): Promise<Verdict> {
  const sent = input.lookupSent ? await input.lookupSent(id) : undefined;
  if (sent?.secret && signatureMatches(sent.secret, id, ts, sig, input.body)) {
    return out(
      'wrong_secret',
      `Signed with the secret of subscription ${sent.subscription_id} (fingerprint ${fingerprint(sent.secret)}), not with this inbox's ${base.secret_source} secret (fingerprint ${base.secret_fingerprint}).${late}`,
    );
  }
  if (sent?.body !== undefined && !input.body.equals(Buffer.from(sent.body))) {
    return out(
      'body_modified',
      `The body differs from what delivery ${id} sent (${Buffer.byteLength(sent.body)} bytes sent, ${input.body.length} received): it was changed after signing.${late}`,
    );
  }
  if (sent?.body !== undefined && sent.secret) {
    return out(
      'signature_mismatch',
      `The body is exactly what delivery ${id} sent and the sender's secret is known, yet the signature does not match: the webhook-id, webhook-timestamp or webhook-signature header was changed after signing.${late}`,
    );
  }
  return out(
    'signature_mismatch',
    `The signature does not match: it was signed with a different secret, or the body was changed after signing (this sender's original is not in the local delivery log, so which one cannot be told).${late}`,
  );
}

export async function computeVerdict(input: VerdictInput): Promise<Verdict> {
  const h = input.headers;
  const [id, ts, sig] = SIGNATURE_HEADERS.map((n) => h[n]);
  const base: Base = { secret_source: 'none', subscription_id: null, secret_fingerprint: null, timestamp_age_s: null };
  const out: Out = (reason, message, extra = {}) => ({ reason, message, ...base, ...extra });
  const problem = headerProblem(out, id, ts, sig);
  if (problem) return problem;
  base.timestamp_age_s = input.now - Number(ts);
  const age = base.timestamp_age_s;
  const outside = Math.abs(age) > TIMESTAMP_TOLERANCE_S;
  const when = age >= 0 ? `${age} s before it arrived` : `${-age} s in the future`;

  if (input.candidates.length === 0) {
    return out(
      'unknown_secret',
      "This inbox has no secret: paste the sender's whsec_ secret, or point a local subscription at this inbox to link its secret.",
    );
  }
  base.secret_source = input.candidates[0].source;
  base.secret_fingerprint = fingerprint(input.candidates[0].secret);
  base.subscription_id = input.candidates[0].subscription_id;
  const usable = input.candidates.filter((c) => parseSecret(c.secret).ok);
  if (usable.length === 0) {
    const p = parseSecret(input.candidates[0].secret);
    return out(
      'invalid_secret_format',
      `The ${base.secret_source} secret is not a Standard Webhooks secret: it ${p.ok ? 'is invalid' : p.reason}. Expected "whsec_" followed by base64.`,
    );
  }

  const match = usable.find((c) => signatureMatches(c.secret, id!, ts!, sig!, input.body));
  if (match) {
    const who = { secret_source: match.source, subscription_id: match.subscription_id, secret_fingerprint: fingerprint(match.secret) };
    if (outside)
      return out(
        'timestamp_outside_tolerance',
        `The signature is valid, but webhook-timestamp is ${when}; the tolerance is ${TIMESTAMP_TOLERANCE_S / 60} minutes (a replay, or a clock far off).`,
        who,
      );
    return out(
      'verified',
      `Signed with the ${match.source === 'pasted' ? 'pasted' : `linked subscription's (${match.subscription_id})`} secret.`,
      who,
    );
  }
  const late = outside ? ` (Also, webhook-timestamp is ${when}, outside the ${TIMESTAMP_TOLERANCE_S / 60}-minute tolerance.)` : '';
  return explainMismatch(out, base, input, id!, ts!, sig!, late);
}
