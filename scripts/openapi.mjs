// `npm run openapi`: writes docs/openapi.json from the operation table in
// src-main/backend/openapi/, renders its delivery-semantics table into docs/api.md
// between the markers, and writes the JSON Schemas of scenario and demo pack files
// (docs/scenario.schema.json, docs/demo-pack.schema.json) from src-main/backend/scenarios/. `--check` writes nothing and exits 1 if either is out of date.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { runnerImport } from 'vite';

const root = resolve(import.meta.dirname, '..');
const config = { configFile: false, root, resolve: { alias: { '@shared': resolve(root, 'src-shared') } }, logLevel: 'error' };
const load = async (file) => (await runnerImport(resolve(root, file), config)).module;

const { openApiJson } = await load('src-main/backend/openapi/document.ts');
const { withSemantics } = await load('src-main/backend/openapi/api-doc.ts');
const { scenarioJsonSchema } = await load('src-main/backend/scenarios/schema.ts');
const { demoPackJsonSchema } = await load('src-main/backend/scenarios/pack-schema.ts');

const check = process.argv.includes('--check');
const targets = [
  ['docs/openapi.json', async () => openApiJson()],
  ['docs/scenario.schema.json', async () => JSON.stringify(scenarioJsonSchema())],
  ['docs/demo-pack.schema.json', async () => JSON.stringify(demoPackJsonSchema())],
  ['docs/api.md', async () => withSemantics(await readFile(resolve(root, 'docs/api.md'), 'utf8'))],
];
let stale = 0;
for (const [file, make] of targets) {
  const path = resolve(root, file);
  // Written as Prettier would format it, so `npm run lint` and the drift test agree.
  const want = await format(await make(), { ...(await resolveConfig(path)), filepath: path });
  const have = await readFile(path, 'utf8').catch(() => '');
  if (want === have) continue;
  stale++;
  if (check) console.error(`${file} is out of date: run npm run openapi`);
  else {
    await writeFile(path, want);
    console.log(`wrote ${file}`);
  }
}
if (check && stale) process.exit(1);
