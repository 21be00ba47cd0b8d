// One writer per data directory: two processes rewriting the same lowdb file would
// each overwrite the other's changes. A lock file holds the owner's pid; a lock left by
// a process that no longer exists is taken over; a live owner makes us refuse to start.
import { readFileSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

// A second backend in this same process must be refused too (its pid is alive: ours).
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A process that has exited but whose parent has not reaped it yet (a crash seconds
 * ago, under a supervisor that is slow to wait) still answers kill(pid, 0), yet it will
 * never write again. Linux says so in /proc/<pid>/stat: the state after the name is Z
 * (zombie) or X (dead). Elsewhere (no /proc) a process that answers is taken as alive.
 */
export function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "<pid> (<name, may hold spaces and parentheses>) <state> …"
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

export class DataDirLock {
  private constructor(private readonly path: string) {}

  static async acquire(dataDir: string): Promise<DataDirLock> {
    const path = join(dataDir, 'countersign.lock');
    for (let tries = 0; tries < 2; tries++) {
      try {
        const file = await open(path, 'wx', 0o600);
        await file.writeFile(String(process.pid));
        await file.close();
        heldHere.add(path);
        return new DataDirLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (heldHere.has(path) || (Number.isInteger(pid) && pid > 0 && isAlive(pid))) {
        throw new DataDirLockedError(
          `Another Countersign instance (pid ${pid || 'unknown'}) is using the data directory ${dataDir}. Stop it, or start this one with another --data-dir.`,
        );
      }
      await unlink(path).catch(() => undefined); // stale: its owner is gone
    }
    throw new DataDirLockedError(`Could not take the lock on ${dataDir}.`);
  }

  async release(): Promise<void> {
    heldHere.delete(this.path);
    await unlink(this.path).catch(() => undefined);
  }
}
