// docs/architecture.md: the backend never imports Electron, so everything users rely on runs and
// is tested without a window. This reads every backend source file and the built
// headless bundle (when present) for an Electron import.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}
const importsElectron = (text: string) => /(from\s+|import\s*\(|require\()\s*['"]electron(\/[^'"]*)?['"]/.test(text);

describe('backend boundary', () => {
  it('no file under src-main/backend imports electron', () => {
    const sources = files('src-main/backend').filter((f) => f.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(20);
    expect(sources.filter((f) => importsElectron(readFileSync(f, 'utf8')))).toEqual([]);
  });
  // `npm test` builds first; a bare `vitest run` without a build skips this one.
  it.skipIf(!existsSync('out/main/headless.js'))('the headless entry does not import electron, even through shared chunks', () => {
    expect(importsElectron("import { app } from 'electron';")).toBe(true);
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      expect(importsElectron(text), file).toBe(false);
      for (const m of text.matchAll(/from\s+["'](\.[^"']+)["']/g)) visit(join(file, '..', m[1]));
    };
    visit('out/main/headless.js');
    expect(seen.size).toBeGreaterThan(1);
  });
});
