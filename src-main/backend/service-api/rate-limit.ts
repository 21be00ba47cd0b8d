// The optional per-key rate limit (docs/api.md, "Limits"). Guards against one key
// flooding the service: a token bucket per key, refilled at `perSecond` a second up to
// `perSecond` (short bursts), in real time whatever the service's clock says. One limit
// per API listener, shared by the Express app (auth.ts) and the hot read (fast-read.ts),
// so a request takes one token whichever of them answers it, and none when it is refused
// for its key (401).
import { systemClock } from '../clock.js';

export class KeyRateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly perSecond: number) {}

  /** Takes a token for one request of `keyId`: 0 when it may go on, else the whole seconds to wait (at least 1). */
  take(keyId: string): number {
    const now = systemClock.now();
    const rate = this.perSecond;
    let b = this.buckets.get(keyId);
    if (!b) this.buckets.set(keyId, (b = { tokens: rate, at: now }));
    b.tokens = Math.min(rate, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    if (b.tokens < 1) return Math.max(1, Math.ceil((1 - b.tokens) / rate));
    b.tokens -= 1;
    return 0;
  }
}

/** The listener's limit, or none when COUNTERSIGN_RATE_LIMIT is not set. */
export const keyRateLimit = (perSecond: number | undefined): KeyRateLimit | undefined =>
  perSecond ? new KeyRateLimit(perSecond) : undefined;
