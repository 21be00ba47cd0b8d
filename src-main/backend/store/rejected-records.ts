// Setting aside the records that do not fit their schema (record-schemas.ts): they
// leave the state, and are written whole to `rejected-<time>.json` in the data directory,
// with the reason for each, so nothing is lost and a person can repair and re-enter them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYED, type Collection } from './journal-line.js';
import { recordProblem } from './record-schemas.js';
import { COLLECTIONS } from './state.js';
import type { DbData } from './schema.js';
import { asideName } from './store-errors.js';

export interface Rejected {
  collection: Collection;
  problem: string;
  record: unknown;
}

/** Removes from `data` every record that does not fit; returns them. */
export function rejectMalformed(data: DbData): Rejected[] {
  const rejected: Rejected[] = [];
  for (const c of COLLECTIONS) {
    const rows = data[c] as unknown[];
    const kept = rows.filter((record) => {
      const problem = recordProblem(c, record);
      if (problem) rejected.push({ collection: c, problem, record });
      return problem === null;
    });
    if (kept.length !== rows.length) (data as unknown as Record<string, unknown[]>)[c] = kept;
  }
  return rejected;
}

/** Writes the rejected records aside; returns the start-up report's paragraph. */
export function keepRejected(dataDir: string, rejected: Rejected[], nowMs: number): string {
  const path = asideName(join(dataDir, 'data.json'), 'rejected', nowMs) + '.json';
  writeFileSync(path, JSON.stringify(rejected, null, 2), { mode: 0o600 });
  const named = rejected.slice(0, 10).map((r) => {
    const key = (r.record as Record<string, unknown> | null)?.[KEYED[r.collection]];
    return `${r.collection} ${typeof key === 'string' ? key : '(no id)'} (${r.problem})`;
  });
  const more = rejected.length > 10 ? `, and ${rejected.length - 10} more` : '';
  return (
    `${rejected.length} stored record${rejected.length === 1 ? ' does' : 's do'} not have the shape this version needs and ` +
    `${rejected.length === 1 ? 'was' : 'were'} set aside, whole, in ${path}: ${named.join('; ')}${more}. ` +
    'Countersign runs without them; repair and re-create them from that file if they matter.'
  );
}
