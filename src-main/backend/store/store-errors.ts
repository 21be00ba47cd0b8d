// Errors the store raises about its own files: each names the file and says what to do,
// so a person reading the start-up failure can act without reading the code.
import { basename } from 'node:path';
import { ApiError } from '../errors.js';

/** A file or folder in the data directory that the store cannot use as it is. */
export class StoreFileError extends Error {
  override name = 'StoreFileError';
}

/** Turns a raw fs error about `path` into a message a person can act on. */
export function explainFsError(path: string, err: unknown, what: string): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR')
    return new StoreFileError(`${path} is a folder, but ${what} belongs there. Move it out of the data directory and start again.`);
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return new StoreFileError(
      `${path} is a file, but the folder for ${what} belongs there. Move it out of the data directory and start again.`,
    );
  if (code === 'EACCES' || code === 'EPERM')
    return new StoreFileError(
      `${path} (${what}) cannot be read or written by this user. Fix its permissions, or start with another --data-dir.`,
    );
  return err instanceof Error ? err : new Error(String(err));
}

/** A file name for a kept-aside copy: `<name>.<why>-<time>`. */
export function asideName(path: string, why: 'damaged' | 'corrupt' | 'rejected', nowMs: number): string {
  return `${path}.${why}-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`;
}

export const fileLabel = (path: string) => basename(path);

/** Errors of the disk itself: the write can work again later (space freed, disk back). */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG', 'ENOMEM']);

/** What a failed write is answered with: 503 storage_unavailable for a disk problem, else the error itself. */
export function storageError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (!code || !STORAGE_CODES.has(code)) return err;
  const why = code === 'ENOSPC' || code === 'EDQUOT' ? 'the disk is full' : 'the disk cannot be written';
  return new ApiError(
    'storage_unavailable',
    `The change was not saved: ${why} (${code}). Nothing of it was kept. Free some space or fix the disk, then try again; no restart is needed.`,
    undefined,
    { 'Retry-After': '5' },
  );
}
