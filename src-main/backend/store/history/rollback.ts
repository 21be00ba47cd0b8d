// Cutting the history log back to an earlier point (a mark), after a failed store write:
// the records appended since belong to changes that were refused, so they must not stay
// (a delivery of a refused change would show as pending forever). Segments are cut to
// the mark's length, newer ones deleted, and the index is rebuilt from what remains on
// disk: a full scan, acceptable for what should be a rare event (a full disk).
import { readdir, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { segmentIdOf, segmentName } from './segments.js';
import type { HistoryMark } from '../history-types.js';

const SIDECAR = /^seg-(\d{6,})\.idx$/;

/** Cuts the files in `dir` back to `mark`. */
export async function cutBack(dir: string, mark: HistoryMark): Promise<void> {
  for (const name of await readdir(dir)) {
    const id = segmentIdOf(name);
    if (id !== null && id > mark.segment) await unlink(join(dir, name));
    // A sidecar describes its segment as it was: the one cut back and every later one go.
    const side = SIDECAR.exec(name);
    if (side && Number(side[1]) >= mark.segment) await unlink(join(dir, name));
  }
  const path = join(dir, segmentName(mark.segment));
  const size = await stat(path).then(
    (s) => s.size,
    () => -1,
  );
  if (size > mark.size) await truncate(path, mark.size);
}
