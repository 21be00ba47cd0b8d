// Writing buffers to a file in order (and syncing a folder), for the journal, the history writer and data.json's
// checkpoint: one writev, and again for what a short write left. A write can be short (a
// nearly full disk takes what fits and refuses the rest only on the next call): an
// unchecked short write would acknowledge a torn line.
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Writes `parts` one after the other at `position` (null: at the file's current position,
 * as for a file opened to append) and returns how many bytes. `what` names the file in
 * the error of a write that makes no progress.
 */
export async function writeParts(handle: FileHandle, parts: Buffer[], position: number | null, what: string): Promise<number> {
  let total = 0;
  for (const p of parts) total += p.length;
  let done = 0;
  let rest = parts.filter((p) => p.length > 0);
  while (rest.length > 0) {
    const { bytesWritten } = position === null ? await handle.writev(rest) : await handle.writev(rest, position + done);
    if (bytesWritten <= 0) throw Object.assign(new Error(`${what}: a write made no progress`), { code: 'EIO' });
    done += bytesWritten;
    rest = remainingAfter(rest, bytesWritten);
  }
  return total;
}

/** What of `parts` is left once their first `n` bytes are written. */
export function remainingAfter(parts: Buffer[], n: number): Buffer[] {
  let i = 0;
  while (i < parts.length && n >= parts[i].length) n -= parts[i++].length;
  if (i === parts.length) return [];
  return [parts[i].subarray(n), ...parts.slice(i + 1)];
}

/** Makes a folder's entries durable (a new file's name is only durable once its folder is synced). */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
