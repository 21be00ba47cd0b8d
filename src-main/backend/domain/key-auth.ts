// Who a request's API key belongs to, cheaply. A key is stored only as its SHA-256 hash
// (api-keys.ts); hashing it on every request costs as much as the rest of the hot read,
// so a key that authenticated is remembered in memory (never written, never logged)
// beside its record for as long as that record is unchanged: the key table forgets the
// pairing on any update, revoke or reload of the record (RowMemo, store/table.ts), so a
// revoked key fails on its very next request. Only keys that authenticated are kept, at
// most MAX of them, so a flood of wrong keys cannot grow the map.
import type { ApiKeyRecord } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import type { Actor, DomainContext } from './context.js';
import { hashKey } from './api-keys.js';

const MAX = 1000;

interface Known {
  row: DeepReadonly<ApiKeyRecord>;
  actor: Actor;
}

export function keyAuthenticator(ctx: DomainContext): (key: string | undefined) => Actor | undefined {
  const table = ctx.store.apiKeys;
  // key → what it was checked as; record → that same entry while the record is unchanged
  // (the memo forgets it on any change), so one pointer comparison says it still holds.
  const known = new Map<string, Known>();
  const current = table.memo<Known>(MAX);
  return (key) => {
    if (!key) return undefined;
    const seen = known.get(key);
    if (seen) {
      if (current.get(seen.row) === seen) return seen.actor;
      known.delete(key);
    }
    const row = table.byHash(hashKey(key));
    if (!row) return undefined;
    const entry: Known = {
      row,
      actor: Object.freeze({ company_id: row.company_id, user_id: row.user_id, key_id: row.id, role: row.role }),
    };
    if (known.size >= MAX) known.clear();
    known.set(key, entry);
    current.set(row, entry);
    return entry.actor;
  };
}
