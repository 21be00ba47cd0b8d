// Secret rotation with overlap (an emulator extra, docs/api.md "Rotate a secret"): the
// replaced secret keeps signing beside the new one for a window, so a receiver can move
// to the new secret without dropping a delivery. Pure: what is live at a given time.
import type { DeepReadonly } from '../store/table.js';
import type { SubscriptionRecord } from '../store/schema.js';
import { secretFingerprint } from './signing.js';
import type { LiveSecret } from '@shared/api-types.js';

/** Default overlap: 24 hours. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 3600;

export interface LiveSecretEntry {
  secret_key: string;
  role: 'current' | 'previous';
  expires_at: string | null;
}

/** Every secret that signs at `now`: previous ones still in their window (oldest first), then the current one. */
export function liveSecrets(
  sub: DeepReadonly<Pick<SubscriptionRecord, 'secret_key' | 'previous_secrets'>>,
  now: number,
): LiveSecretEntry[] {
  const previous = (sub.previous_secrets ?? [])
    .filter((p) => Date.parse(p.expires_at) > now)
    .map((p) => ({ secret_key: p.secret_key, role: 'previous' as const, expires_at: p.expires_at }));
  return [...previous, { secret_key: sub.secret_key, role: 'current', expires_at: null }];
}

/** The same, as a person may see it: fingerprints, never secrets. */
export function liveSecretViews(sub: DeepReadonly<Pick<SubscriptionRecord, 'secret_key' | 'previous_secrets'>>, now: number): LiveSecret[] {
  return liveSecrets(sub, now).map((s) => ({ fingerprint: secretFingerprint(s.secret_key), role: s.role, expires_at: s.expires_at }));
}

/** The previous secrets after rotating at `now`: the current one joins them until `now + overlap`; expired ones go. */
export function rotatedPrevious(
  sub: DeepReadonly<Pick<SubscriptionRecord, 'secret_key' | 'previous_secrets'>>,
  now: number,
  overlapSeconds: number,
): { secret_key: string; expires_at: string }[] {
  const kept = (sub.previous_secrets ?? []).filter((p) => Date.parse(p.expires_at) > now).map((p) => ({ ...p }));
  if (overlapSeconds <= 0) return kept;
  return [...kept, { secret_key: sub.secret_key, expires_at: new Date(now + overlapSeconds * 1000).toISOString() }];
}
