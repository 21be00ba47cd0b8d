// What the store holds at open: data.json (the last checkpoint) plus the journals that
// continue it, and a plain account of every problem met on the way (store-level
// warnings, shown at start-up and by GET /console/api/status).
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Low } from 'lowdb';
import type { DurableJsonFile } from './durable-file.js';
import { describeDamage, replayJournals } from './journal-replay.js';
import { emptyData, type DbData } from './schema.js';
import { keepRejected, rejectMalformed } from './rejected-records.js';
import { explainFsError } from './store-errors.js';
import { systemClock } from '../clock.js';

export interface Recovered {
  data: DbData;
  warnings: string[];
  /** Damage was met: checkpoint at once, so it is not met (and reported) again at every start. */
  foldNow: boolean;
}

export async function recoverState(dataDir: string, db: Low<DbData>, file: DurableJsonFile<DbData>): Promise<Recovered> {
  const warnings: string[] = [];
  await db.read().catch((err: unknown) => {
    throw explainFsError(file.path, err, 'the store file');
  });
  const aside = file.lastRead.keptAsidePath;
  if (aside) {
    const prev = await file.readPrevious();
    if (prev) {
      // The previous checkpoint plus the journals after it (its own is kept) rebuild the state.
      db.data = prev.data;
      warnings.push(
        `The store file was unreadable (${file.lastRead.reason}). It was kept unchanged at ${aside}; the state was rebuilt from the previous checkpoint ${prev.path} and the journal.`,
      );
    } else {
      // Journals continue a checkpoint; without a trustworthy one they are kept aside too.
      moveJournalsAside(dataDir, aside.slice(aside.lastIndexOf('.corrupt-')));
      warnings.push(
        `The store file was unreadable (${file.lastRead.reason}). It was kept unchanged at ${aside}; there was no usable previous checkpoint, so Countersign started with an empty store.`,
      );
    }
  }
  // Journals older than the previous checkpoint's are deleted; its own is kept.
  const gen = db.data.journal_generation ?? 0;
  const replay = replayJournals(dataDir, db.data, systemClock.now(), gen - 1);
  for (const d of replay.damage) warnings.push(describeDamage(d));
  const rejected = rejectMalformed(db.data);
  if (rejected.length > 0) warnings.push(keepRejected(dataDir, rejected, systemClock.now()));
  return { data: db.data, warnings, foldNow: aside !== undefined || replay.damage.length > 0 || rejected.length > 0 };
}

function moveJournalsAside(dataDir: string, suffix: string): void {
  for (const f of readdirSync(dataDir)) if (/^journal-\d+\.jsonl$/.test(f)) renameSync(join(dataDir, f), join(dataDir, f + suffix));
}

/** The last good state on disk (data.json plus its journals), read synchronously after a failed write. */
export function readLastGoodSync(dataDir: string, path: string, onError: (err: unknown) => void): DbData {
  let data: DbData = emptyData();
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as DbData;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onError(err);
  }
  try {
    const replay = replayJournals(dataDir, data, systemClock.now(), (data.journal_generation ?? 0) - 1);
    for (const d of replay.damage) onError(new Error(describeDamage(d)));
  } catch (err) {
    onError(err);
  }
  return data;
}
