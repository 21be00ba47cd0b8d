// Each verdict reason in words: a short title for lists, a sentence that says exactly
// what was found, and what to look at. The receiver's own message (with the specifics
// of that capture) is shown beside it.
import type { VerdictReason } from '@shared/receiver-types.js';

export interface VerdictWords {
  /** For badges and list rows. */
  short: string;
  title: string;
  /** What it means and what to do. */
  explain: string;
  tone: 'success' | 'danger' | 'warning' | 'neutral';
}

export const VERDICT_WORDS: Record<VerdictReason, VerdictWords> = {
  verified: {
    short: 'verified',
    title: 'Verified',
    explain: 'The signature matches the secret and the body, and the timestamp is within 5 minutes of arrival.',
    tone: 'success',
  },
  no_signature_headers: {
    short: 'no signature',
    title: 'Not verified: no signature headers',
    explain: 'The request has none of webhook-id, webhook-timestamp and webhook-signature. It was not signed with Standard Webhooks.',
    tone: 'danger',
  },
  malformed_signature_headers: {
    short: 'malformed headers',
    title: 'Not verified: malformed signature headers',
    explain: 'Some signature headers are missing, the timestamp is not Unix seconds, or the signature has no v1,<base64> entry.',
    tone: 'danger',
  },
  unknown_secret: {
    short: 'no secret',
    title: 'Not verified: this inbox has no secret',
    explain: 'Paste the sender’s whsec_ secret on the inbox, or subscribe the inbox so that a local subscription’s secret is linked.',
    tone: 'warning',
  },
  invalid_secret_format: {
    short: 'bad secret format',
    title: 'Not verified: the inbox’s secret is not a whsec_ secret',
    explain:
      'A Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 bytes. Paste the secret exactly as the sender gave it.',
    tone: 'warning',
  },
  wrong_secret: {
    short: 'wrong secret',
    title: 'Not verified: signed with a different secret',
    explain:
      'The body is exactly what was sent, and the signature matches the sending subscription’s secret: the inbox verifies with another one.',
    tone: 'danger',
  },
  body_modified: {
    short: 'body changed',
    title: 'Not verified: the body was changed after signing',
    explain: 'The body that arrived differs from the exact body the local service signed and sent. Compare sent and received to see where.',
    tone: 'danger',
  },
  signature_mismatch: {
    short: 'signature mismatch',
    title: 'Not verified: the signature does not match',
    explain:
      'Signed with a different secret, or the body was changed after signing. The sender is not the local service, so which one cannot be told.',
    tone: 'danger',
  },
  timestamp_outside_tolerance: {
    short: 'stale timestamp',
    title: 'Not verified: timestamp outside the 5-minute tolerance',
    explain:
      'The signature matches, but webhook-timestamp is more than 5 minutes from the arrival time: a replay of an old request, or a clock far off.',
    tone: 'warning',
  },
};

/** Words for a capture that was not verified at all (a body over the size limit). */
export const UNCHECKED_WORDS: VerdictWords = {
  short: 'not checked',
  title: 'Not checked: the body was over the size limit',
  explain: 'The receiver keeps and verifies bodies up to 1 MiB; this one was answered 413 and only its start was kept.',
  tone: 'neutral',
};

export function verdictWords(reason: VerdictReason | null): VerdictWords {
  return reason ? (VERDICT_WORDS[reason] ?? { ...UNCHECKED_WORDS, short: reason, title: reason }) : UNCHECKED_WORDS;
}

/** "42 s ago", "3 min in the future": the timestamp's distance from arrival. */
export function describeAge(ageS: number | null): string | null {
  if (ageS === null) return null;
  const abs = Math.abs(ageS);
  const amount = abs < 120 ? `${abs} s` : abs < 7200 ? `${Math.round(abs / 60)} min` : `${Math.round(abs / 3600)} h`;
  return ageS >= 0 ? `${amount} before arrival` : `${amount} after arrival (in the future)`;
}
