// The scenarios and demo packs that ship with Countersign: `resources/scenarios/*.json`
// and `resources/demo/<name>/pack.json`, read when asked (small files, a handful).
// The folder is found by walking up from this module, which works from the sources
// (tests), the build (out/main) and the packaged app (resources beside app.asar).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScenarioListing } from '@shared/scenario-types.js';
import { notFound } from '../errors.js';
import { demoPackSchema, type DemoPack } from './pack-schema.js';
import { scenarioSchema, type Scenario } from './schema.js';

export function findResourcesDir(start = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = start, i = 0; i < 6; i++, dir = dirname(dir)) {
    const candidate = join(dir, 'resources');
    if (existsSync(join(candidate, 'demo'))) return candidate;
  }
  return null;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,59}$/;

export class ScenarioLibrary {
  constructor(private readonly dir: string | null = findResourcesDir()) {}

  async list(): Promise<ScenarioListing[]> {
    const scenarios = await this.names(
      'scenarios',
      (f) => f.endsWith('.json'),
      (f) => f.slice(0, -5),
    );
    const packs = await this.names(
      'demo',
      () => true,
      (f) => f,
    );
    const out: ScenarioListing[] = [];
    for (const name of scenarios) out.push({ name, description: (await this.scenario(name)).description ?? '', source: 'scenario' });
    for (const name of packs) {
      const pack = await this.pack(name);
      if (pack.scenario) out.push({ name: pack.name, description: pack.description, source: 'demo_pack' });
    }
    return out;
  }

  async packs(): Promise<{ name: string; description: string }[]> {
    const names = await this.names(
      'demo',
      () => true,
      (f) => f,
    );
    return Promise.all(names.map(async (n) => ({ name: n, description: (await this.pack(n)).description })));
  }

  /** A shipped scenario by name: its own file, else the scenario of the demo pack of that name. */
  async scenario(name: string): Promise<Scenario> {
    const file = this.dir && NAME.test(name) ? join(this.dir, 'scenarios', `${name}.json`) : null;
    if (file && existsSync(file)) return scenarioSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    const pack = await this.pack(name).catch(() => undefined);
    if (pack?.scenario) return pack.scenario;
    throw notFound('scenario');
  }

  async pack(name: string): Promise<DemoPack> {
    const file = this.dir && NAME.test(name) ? join(this.dir, 'demo', name, 'pack.json') : null;
    if (!file || !existsSync(file)) throw notFound('demo pack');
    return demoPackSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  }

  private async names(sub: string, keep: (f: string) => boolean, name: (f: string) => string): Promise<string[]> {
    if (!this.dir) return [];
    const files = await readdir(join(this.dir, sub)).catch(() => [] as string[]);
    return files
      .filter(keep)
      .map(name)
      .filter((n) => NAME.test(n))
      .sort();
  }
}
