// glibc's malloc_trim through out/native/malloc-trim.node (built by `npm run build`,
// scripts/build-native.mjs). The measurement runs in a child process of its own (real
// node, --expose-gc) so that this worker's heap does not blur it.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src-main/backend/clock.js';
import { TRIM_EVERY_MS, mallocTrimPath, startPeriodicTrim } from '../../src-main/backend/malloc-trim.js';
import { isGlibc, nodeHeaders } from '../../scripts/build-native.mjs';

const built = mallocTrimPath();
const compiler = (() => {
  try {
    execFileSync(process.env.CC || 'cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// What the module is for: 64 MiB of 16 KiB buffers (malloc'd, below glibc's mmap threshold), every
// 50th kept so that the heap's top stays pinned, the rest collected: glibc keeps the freed pages
// resident until malloc_trim gives them back.
const PROBE = `
import { readFileSync } from 'node:fs';
const m = { exports: {} };
process.dlopen(m, process.argv[1]);
const heapMiB = () => {
  const maps = readFileSync('/proc/self/smaps', 'utf8');
  const at = maps.indexOf('[heap]');
  return at < 0 ? 0 : Number(/Rss:\\s+(\\d+) kB/.exec(maps.slice(at))[1]) / 1024;
};
let all = [];
const kept = [];
for (let i = 0; i < 4000; i++) {
  const b = Buffer.allocUnsafeSlow(16384).fill(1);
  all.push(b);
  if (i % 50 === 49) kept.push(b);
}
all = null;
for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 50)); }
const before = heapMiB();
const trimmed = m.exports.trim();
console.log(JSON.stringify({ before, after: heapMiB(), trimmed, kept: kept.length, glibc: m.exports.glibc() }));
`;

describe('malloc_trim at the idle collection (native/malloc-trim.c)', () => {
  it('is built by npm run build wherever glibc, a C compiler and Node headers are there', () => {
    if (!(isGlibc() && compiler && nodeHeaders())) return; // nothing to build with: the service runs without it (said by build-native)
    expect(built, 'out/native/malloc-trim.node: run npm run build').toBeDefined();
  });

  it.skipIf(!built)("gives the freed pages of glibc's heap back, which freeing alone leaves resident", () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', PROBE, built!], { encoding: 'utf8' });
    const r = JSON.parse(out) as { before: number; after: number; trimmed: boolean; kept: number; glibc: boolean };
    expect(r.glibc).toBe(true);
    expect(r.before).toBeGreaterThan(40); // the freed 62 MiB stayed resident
    expect(r.trimmed).toBe(true);
    expect(r.after).toBeLessThan(r.before - 40);
    expect(r.kept).toBe(80);
  });

  it("finds the module from the bundle's folder as from the sources", () => {
    if (!built) return;
    expect(mallocTrimPath(`${process.cwd()}/out/main/chunks`)).toBe(built);
    expect(mallocTrimPath('/')).toBeUndefined();
  });

  it('also trims every TRIM_EVERY_MS while the service runs, until stopped', () => {
    const clock = new ManualClock(Date.parse('2026-11-27T07:00:00.000Z'));
    let trims = 0;
    const stop = startPeriodicTrim(clock, () => ++trims > 0);
    clock.advance(TRIM_EVERY_MS - 1);
    expect(trims).toBe(0);
    clock.advance(1);
    expect(trims).toBe(1);
    clock.advance(3 * TRIM_EVERY_MS);
    expect(trims).toBe(4);
    stop();
    clock.advance(10 * TRIM_EVERY_MS);
    expect(trims).toBe(4);
  });
});
