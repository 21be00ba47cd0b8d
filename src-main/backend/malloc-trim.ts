// glibc's malloc_trim(0) for the idle collection, through out/native/malloc-trim.node
// (native/malloc-trim.c, built by `npm run build` where a C compiler and Node's headers
// are there: scripts/build-native.mjs).
//
// Why (docs/architecture.md, Memory): glibc's malloc gives memory back to the system only
// from the top of its main heap. A burst of requests fills that heap with short-lived
// blocks (socket reads, the HTTP parser's copies of bodies waiting for V8 to free their
// buffers); a few long-lived blocks made meanwhile (an inbox's capture bodies) pin it, so
// after the bench's soak an idle service kept ~11 MiB of free pages resident in it.
// malloc_trim(0) gives back every whole free page wherever it is: measured on such a
// service, 85.9 -> 78.8 MiB. Without the module (not built, not glibc, Electron packaged
// without it) trimMalloc does nothing and the service works the same.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock, type Clock } from './clock.js';

interface NativeTrim {
  trim(): boolean;
  glibc(): boolean;
}

/** The module's path: `out/native/malloc-trim.node` in the first folder up from this code that has one. */
export function mallocTrimPath(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const path = join(dir, 'out', 'native', 'malloc-trim.node');
    if (existsSync(path)) return path;
    if (dirname(dir) === dir) return undefined;
  }
}

let native: NativeTrim | null | undefined;

function load(): NativeTrim | null {
  const path = mallocTrimPath();
  if (!path) return null;
  try {
    const module = { exports: {} as NativeTrim };
    process.dlopen(module, path);
    return module.exports.glibc() ? module.exports : null;
  } catch {
    return null; // built for another Node ABI or platform: as if it were not there
  }
}

/** Whether trimMalloc can give memory back in this process (the module built, loaded, and glibc). */
export function mallocTrimAvailable(): boolean {
  native ??= load();
  return native !== null;
}

/** Gives glibc's free heap pages back to the system; true if any were. Does nothing without the module. */
export function trimMalloc(): boolean {
  return mallocTrimAvailable() ? native!.trim() : false;
}

/** How often the heap is trimmed while the service runs, in ms (besides after each idle collection). */
export const TRIM_EVERY_MS = 5000;

/**
 * Trims every TRIM_EVERY_MS as well, busy or not: under steady load glibc's heap holds the
 * free pages of the last peak of short-lived blocks as long as something above them lives,
 * and the soak's RSS peaks add them to everything else. A trim costs ~1 ms; the pages it
 * gives back are faulted in again only if a later peak needs them. Nothing without the module.
 */
export function startPeriodicTrim(
  clock: Clock = systemClock,
  trim: (() => boolean) | null = mallocTrimAvailable() ? trimMalloc : null,
): () => void {
  if (!trim) return () => {};
  const timer = clock.setInterval(() => trim(), TRIM_EVERY_MS).unref();
  return () => clock.clearInterval(timer);
}
