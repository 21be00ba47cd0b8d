// `--demo <name or path>` at start (npm start, the headless entry, the desktop app):
// the backend loads the pack once it listens, offline. A name is a shipped pack
// (resources/demo/<name>/pack.json); anything with a slash or ending in .json is a
// pack file, such as one written by the export.
import { readFile } from 'node:fs/promises';
import { demoPackSchema, type DemoPack } from './pack-schema.js';
import { ScenarioLibrary } from './library.js';
import { loadPack, type PackLoad } from './demo-pack.js';
import type { ScenarioDeps } from './runner.js';

export async function readPack(nameOrPath: string, library = new ScenarioLibrary()): Promise<DemoPack> {
  if (!/[/\\]|\.json$/.test(nameOrPath)) {
    return library.pack(nameOrPath).catch(async () => {
      const names = (await library.packs()).map((p) => p.name).join(', ');
      throw new Error(`no demo pack is named "${nameOrPath}" (shipped: ${names || 'none'})`);
    });
  }
  const parsed = demoPackSchema.safeParse(JSON.parse(await readFile(nameOrPath, 'utf8')));
  if (!parsed.success)
    throw new Error(`${nameOrPath} is not a demo pack: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export async function loadDemoAtStart(deps: ScenarioDeps, companyId: string, nameOrPath: string): Promise<PackLoad> {
  return loadPack(deps, companyId, await readPack(nameOrPath));
}
