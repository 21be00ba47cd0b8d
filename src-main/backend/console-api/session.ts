// The console's identity for this run: one admin key of the Demo Company, minted on
// first use and shared by every console tab (minting revokes the previous run's console
// key, so it must happen once per run, not once per page load).
import type { Actor } from '../domain/context.js';
import { internalError } from '../errors.js';
import type { ConsoleSession } from '@shared/api-types.js';

export interface SessionSource {
  createConsoleSession(): Promise<ConsoleSession>;
  authenticate(key: string | undefined): Actor | undefined;
}

export interface SessionHolder {
  get(): Promise<{ session: ConsoleSession; actor: Actor }>;
}

export function sessionHolder(domain: SessionSource): SessionHolder {
  let pending: Promise<{ session: ConsoleSession; actor: Actor }> | null = null;
  const mint = async () => {
    const session = await domain.createConsoleSession();
    const actor = domain.authenticate(session.api_key);
    if (!actor) throw internalError();
    return { session, actor };
  };
  return {
    get() {
      pending ??= mint().catch((err) => {
        pending = null; // a failed mint may be retried by the next request
        throw err;
      });
      // The key can be revoked from outside (the API's own key routes); mint again then.
      return pending.then(async (held) => {
        if (domain.authenticate(held.session.api_key)) return held;
        pending = mint();
        return pending;
      });
    },
  };
}
