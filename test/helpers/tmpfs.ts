// A small tmpfs mount, so a test can fill the disk under a real backend (disk-full
// behaviour). Needs root (CI runs as root on a fresh machine); where mounting is not
// possible the probe says why, and the tests that need it are skipped with that reason.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Fills the mount with one file until the disk is full; returns its path. */
  fill: () => Promise<string>;
  unmount: () => void;
}

export function mountTmpfs(bytes: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'countersign-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  return {
    dir,
    fill: async () => {
      const path = join(dir, 'filler');
      const fh = await open(path, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) await fh.write(chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
      // Then byte by byte to the very end: no room left for even a short journal line.
      try {
        for (;;) await fh.write(Buffer.alloc(1, 1));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        await fh.close();
      }
      return path;
    },
    unmount: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why a tmpfs cannot be mounted here, or null when it can. */
export function tmpfsUnavailable(): string | null {
  try {
    mountTmpfs(64 * 1024).unmount();
    return null;
  } catch (err) {
    return `cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]}); disk-full tests need root`;
  }
}

export const removeFile = (path: string) => rm(path, { force: true });
