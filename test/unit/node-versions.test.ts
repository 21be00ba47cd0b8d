// The README's table of Node versions is checked against what the lockfile's packages
// declare, so the table cannot go stale when a dependency raises its floor.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import semver from 'semver';

type LockPackage = { engines?: { node?: string } | string[] };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockPackage> };
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const readme = readFileSync('README.md', 'utf8');

/** Packages whose declared Node range the given version does not satisfy (what npm warns about). */
function unsupportedBy(version: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.engines && !Array.isArray(p.engines) && typeof p.engines.node === 'string')
    .filter(([, p]) => !semver.satisfies(version, (p.engines as { node: string }).node))
    .map(([path]) => path.replace(/^.*node_modules\//, ''));
}

const headlessFloor = /The headless console, the `countersign` command, the tests\s*\|\s*(\d+\.\d+) or newer/.exec(readme)?.[1];
const quietFloor = /Everything, quietly: .*\|\s*(\d+\.\d+) or newer on (\d+), or (\d+) and newer/.exec(readme);

describe('Node versions (README table)', () => {
  it('the README names a floor for the headless parts and one for a quiet install', () => {
    expect(headlessFloor).toBeDefined();
    expect(quietFloor).not.toBeNull();
  });

  it('package.json engines is the headless floor', () => {
    expect(semver.minVersion(pkg.engines.node)?.version).toBe(`${headlessFloor}.0`);
  });

  it('on the headless floor only Electron download/packaging tools ask for more', () => {
    const warned = unsupportedBy(`${headlessFloor}.0`);
    expect(warned.length).toBeGreaterThan(0); // else the README's warning paragraph is stale
    for (const name of warned) expect(name).toMatch(/^(@electron(-internal)?\/|electron$|node-abi$)/);
  });

  it('the quiet floors satisfy every package, and the version just below does not', () => {
    const [, minor, line, next] = quietFloor!;
    expect(unsupportedBy(`${minor}.0`)).toEqual([]);
    expect(unsupportedBy(`${next}.0.0`)).toEqual([]);
    const [major, minorNo] = minor.split('.').map(Number);
    const below = `${major}.${minorNo - 1}.99`;
    expect(unsupportedBy(below).length, `${below} should warn, else the README floor is too high`).toBeGreaterThan(0);
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe(line);
  });
});
