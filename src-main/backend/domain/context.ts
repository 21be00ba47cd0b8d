import type { Store } from '../store/store.js';
import type { HistoryLog } from '../store/history-types.js';
import type { ChangeBus } from '../bus.js';
import { isoNow, type Clock } from '../clock.js';
import type { Outbox } from '../delivery/outbox.js';

/** What every domain module works with. */
export interface DomainContext {
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  /** The service's clock: every timestamp the domain writes comes from it. */
  clock: Clock;
  /** The only way to queue deliveries (and to cancel or repeat them). */
  outbox: Outbox;
  /** `{app_url}`, known once the listener is bound. */
  appUrl: () => string;
  /** Endpoint health and rotation settings (config); defaults when absent. */
  settings?: HealthSettings;
}

export interface HealthSettings {
  /** A subscription whose every attempt failed for this long is disabled; 0: never. */
  disableAfterFailingSeconds: number;
  /** How long a replaced secret keeps signing after a rotation. */
  rotationOverlapSeconds: number;
}

/** The caller, as established from its API key. */
export interface Actor {
  company_id: string;
  user_id: string;
  key_id: string;
  role: 'admin' | 'member';
}

export const nowIso = (ctx: DomainContext): string => isoNow(ctx.clock);
