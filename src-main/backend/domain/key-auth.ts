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

type KeyRow = DeepReadonly<ApiKeyRecord>;

export function keyAuthenticator(ctx: DomainContext): (key: string | undefined) => Actor | undefined {
  const table = ctx.store.apiKeys;
  // key → its record; record → the key and actor it was checked with (forgotten on any change).
  const known = new Map<string, KeyRow>();
  const checked = table.memo<{ key: string; actor: Actor }>();
  return (key) => {
    if (!key) return undefined;
    const row = known.get(key);
    if (row) {
      const memo = checked.get(row);
      if (memo && memo.key === key) return memo.actor;
      known.delete(key);
    }
    const rec = table.byHash(hashKey(key));
    if (!rec) return undefined;
    const actor: Actor = Object.freeze({ company_id: rec.company_id, user_id: rec.user_id, key_id: rec.id, role: rec.role });
    if (known.size >= MAX) known.clear();
    known.set(key, rec);
    checked.set(rec, { key, actor });
    return actor;
  };
}
