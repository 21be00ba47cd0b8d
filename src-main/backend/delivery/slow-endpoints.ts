// Subscriptions whose endpoint keeps timing out. An attempt that times out held its
// slot for the whole deadline; a few hanging endpoints would hold the pool. Once a
// subscription's last STRIKES attempts all timed out, its attempts get the sender's
// shorter deadline and it may hold only SLOW_SLOTS slots, until an attempt ends any
// other way (an answer, or a quick network error).
export const STRIKES = 2;
export const SLOW_SLOTS = 2;

export class SlowEndpoints {
  private readonly strikes = new Map<string, number>();

  /** Records how an attempt to `subscriptionId` ended. */
  note(subscriptionId: string, timedOut: boolean): void {
    if (timedOut) this.strikes.set(subscriptionId, (this.strikes.get(subscriptionId) ?? 0) + 1);
    else if (this.strikes.size > 0) this.strikes.delete(subscriptionId);
  }

  isSlow(subscriptionId: string): boolean {
    // Asked several times per attempt (slot limits); nearly always nothing times out.
    return this.strikes.size > 0 && (this.strikes.get(subscriptionId) ?? 0) >= STRIKES;
  }

  /** Slots the subscription may hold (Infinity: only the usual limits). */
  slotsFor(subscriptionId: string): number {
    return this.isSlow(subscriptionId) ? SLOW_SLOTS : Infinity;
  }

  forget(subscriptionId: string): void {
    this.strikes.delete(subscriptionId);
  }
}
