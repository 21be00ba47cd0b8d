// Deliberate faults per subscription (an emulator extra, never part of /v2/webhooks):
// what a tester asks for, kept in the store (the `webhook_faults` extension, so it
// survives a restart and goes when the subscription goes), and the plan of one attempt
// (which faults it carries). The attempt (attempt.ts) carries the plan out; the attempt
// log names every fault an attempt carried, so nobody mistakes a fault for a bug.
import { randomInt } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { FaultName, WebhookFaults } from '@shared/api-types.js';

const EXTENSION = 'webhook_faults';

/** What one attempt does differently. Empty `names`: an ordinary attempt. */
export interface FaultPlan {
  names: FaultName[];
  /** Real milliseconds to wait before sending. */
  delayMs: number;
  /** Seconds subtracted from webhook-timestamp. */
  staleSeconds: number;
  wrongSecret: boolean;
  rotation: boolean;
  duplicate: boolean;
  /** Hold in the subscription's reorder window (real ms), 0 for none. */
  reorderWindowMs: number;
  /** Send to a redirecting URL first (the 3xx status it answers with), 0 for none. */
  redirectStatus: number;
}

export const NO_FAULTS: FaultPlan = {
  names: [],
  delayMs: 0,
  staleSeconds: 0,
  wrongSecret: false,
  rotation: false,
  duplicate: false,
  reorderWindowMs: 0,
  redirectStatus: 0,
};

/** True with probability `share` (1: always, 0: never). */
const chance = (share: number | undefined): boolean => {
  const s = share ?? 1;
  return s >= 1 || (s > 0 && randomInt(1_000_000) < s * 1_000_000);
};

export class FaultRegistry {
  constructor(private readonly store: Store) {}

  private all(): Record<string, WebhookFaults> {
    return (this.store.extensions.get<Record<string, WebhookFaults>>(EXTENSION) ?? {}) as Record<string, WebhookFaults>;
  }

  get(subscriptionId: string): WebhookFaults {
    return this.all()[subscriptionId] ?? {};
  }

  /** Replaces the subscription's faults ({} clears them). The caller commits. */
  set(subscriptionId: string, faults: WebhookFaults): void {
    const next = { ...this.all() };
    if (Object.keys(faults).length === 0) delete next[subscriptionId];
    else next[subscriptionId] = faults;
    this.store.extensions.set(EXTENSION, next);
  }

  /** Drops the faults of subscriptions that no longer exist. The caller commits. */
  prune(exists: (subscriptionId: string) => boolean): void {
    const all = this.all();
    const gone = Object.keys(all).filter((id) => !exists(id));
    if (gone.length === 0) return;
    const next = { ...all };
    for (const id of gone) delete next[id];
    this.store.extensions.set(EXTENSION, next);
  }

  /** Which faults attempt `attempt` of a delivery to `subscriptionId` carries (each drawn by its share). */
  plan(subscriptionId: string, attempt: number): FaultPlan {
    const f = this.all()[subscriptionId];
    if (!f) return NO_FAULTS;
    const plan: FaultPlan = { ...NO_FAULTS, names: [] };
    if (f.delay && chance(f.delay.share)) {
      plan.delayMs = f.delay.ms;
      plan.names.push('delay');
    }
    if (f.stale_timestamp && chance(f.stale_timestamp.share)) {
      plan.staleSeconds = f.stale_timestamp.seconds;
      plan.names.push('stale_timestamp');
    }
    if (f.wrong_secret && chance(f.wrong_secret.share)) {
      plan.wrongSecret = true;
      plan.names.push('wrong_secret');
    } else if (f.rotation && chance(f.rotation.share)) {
      plan.rotation = true;
      plan.names.push('rotation');
    }
    // A redirect answers the first attempt only: the retry reaches the endpoint, as after a fixed URL.
    if (f.redirect && attempt === 1 && chance(f.redirect.share)) {
      plan.redirectStatus = f.redirect.status ?? 307;
      plan.names.push('redirect');
    }
    // A redirected attempt never reaches the endpoint, so there is nothing to repeat.
    if (f.duplicate && !plan.redirectStatus && chance(f.duplicate.share)) {
      plan.duplicate = true;
      plan.names.push('duplicate');
    }
    if (f.reorder && chance(f.reorder.share)) {
      plan.reorderWindowMs = f.reorder.window_ms;
      plan.names.push('reorder');
    }
    return plan;
  }
}
