// What the rest of the backend needs from the delivery engine (delivery/engine.ts).
// Work reaches the engine through the outbox (delivery/outbox.ts), never directly.
import type { BackendConfig } from '../config.js';
import type { ChangeBus } from '../bus.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { FaultRegistry } from './faults.js';
import type { Redirector } from './redirector.js';
import type { Outbox } from './outbox.js';
import type { Job } from './scheduler.js';
import type { DeepReadonly } from '../store/table.js';
import type { SubscriptionRecord } from '../store/schema.js';

export interface DeliveryEngine {
  /** Loads the stored deliveries from the outbox and starts working them. */
  start(): void;
  /** Number of attempts in flight (for status displays and tests). */
  inFlight(): number;
  /** Stops taking new attempts, waits for those in flight (bounded), persists state. */
  stop(): Promise<void>;
}

export interface DeliveryEngineDeps {
  store: Store;
  outbox: Outbox;
  bus: ChangeBus;
  config: BackendConfig;
  /** The service's clock (the system clock by default). */
  clock?: Clock;
  /** Deliberate faults per subscription (test helpers); none when absent. */
  faults?: FaultRegistry;
  /** Where the redirect fault sends an attempt first. */
  redirector?: Redirector;
  /** Endpoint health (domain/subscription-health.ts): told of every ended attempt; may disable the subscription. */
  health?: EndpointHealth;
  /** Whether a URL is one of the receiver's tunnel URLs (current or past) and the tunnel is not online now. */
  tunnelOffline?: (url: string) => boolean;
}

export interface EndpointHealth {
  /** `gone`: the endpoint answered 410 (disable at once). */
  attempted(subscriptionId: string, outcome: { succeeded: boolean; gone: boolean; at: number }): void;
}

export type Sub = DeepReadonly<SubscriptionRecord>;

/** What an attempt under way carries to its end (engine.ts): its job, its subscription as it started, whether the tunnel was down then. */
export interface Flying {
  job: Job;
  sub: Sub;
  offline: boolean;
}
