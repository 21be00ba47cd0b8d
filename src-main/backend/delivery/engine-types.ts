// What the rest of the backend needs from the delivery engine (delivery/engine.ts).
import type { DeliverySummary } from '../store/history-types.js';

export interface DeliveryEngine {
  /** Loads the stored schedule (store.data.pending_deliveries) and starts working it. */
  start(): void;
  /**
   * New pending deliveries were committed (they are already in
   * store.data.pending_deliveries, with their events in store.data.pending_events):
   * attempt the due ones now.
   */
  wake(): void;
  /** Drops timers and discards in-flight results for a deleted subscription (the domain removed its pending rows). */
  cancelSubscription(subscriptionId: string): void;
  /**
   * Sends a delivery again (same webhook-id, attempts continue counting), even when it
   * had succeeded or failed for good. Resolves once the new pending row is durable.
   */
  redeliver(deliveryId: string): Promise<DeliverySummary>;
  /** Number of attempts in flight (for status displays and tests). */
  inFlight(): number;
  /** Stops taking new attempts, waits for those in flight (bounded), persists state. */
  stop(): Promise<void>;
}
