// What the rest of the backend needs from the delivery engine (delivery/engine.ts).
// Work reaches the engine through the outbox (delivery/outbox.ts), never directly.

export interface DeliveryEngine {
  /** Loads the stored deliveries from the outbox and starts working them. */
  start(): void;
  /** Number of attempts in flight (for status displays and tests). */
  inFlight(): number;
  /** Stops taking new attempts, waits for those in flight (bounded), persists state. */
  stop(): Promise<void>;
}
