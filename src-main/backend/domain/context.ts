import type { Store } from '../store/store.js';
import type { HistoryLog } from '../store/history-types.js';
import type { ChangeBus } from '../bus.js';

/** What every domain module works with. */
export interface DomainContext {
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  /** `{app_url}`, known once the listener is bound. */
  appUrl: () => string;
}

/** The caller, as established from its API key. */
export interface Actor {
  company_id: string;
  user_id: string;
  key_id: string;
  role: 'admin' | 'member';
}

export const nowIso = (): string => new Date().toISOString();
