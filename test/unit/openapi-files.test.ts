// The files `npm run openapi` writes from the OpenAPI document (src-main/backend/openapi/):
// docs/openapi.json, and the delivery-semantics table of docs/api.md. Either one edited by
// hand, or left stale after a change to the document, fails here.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { openApiJson } from '../../src-main/backend/openapi/document.js';
import { withSemantics } from '../../src-main/backend/openapi/api-doc.js';
import { scenarioJsonSchema } from '../../src-main/backend/scenarios/schema.js';
import { demoPackJsonSchema } from '../../src-main/backend/scenarios/pack-schema.js';

const prettier = async (file: string, text: string) => format(text, { ...(await resolveConfig(file)), filepath: file });

describe('the files generated from the OpenAPI document', () => {
  it('docs/openapi.json is what `npm run openapi` writes (run it after changing src-main/backend/openapi/)', async () => {
    const file = resolve('docs/openapi.json');
    expect(await readFile(file, 'utf8')).toBe(await prettier(file, openApiJson()));
  });

  it("docs/api.md's delivery-semantics table is rendered from the document (run `npm run openapi`)", async () => {
    const file = resolve('docs/api.md');
    const text = await readFile(file, 'utf8');
    expect(text).toBe(await prettier(file, withSemantics(text)));
  });

  it.each([
    ['docs/scenario.schema.json', scenarioJsonSchema],
    ['docs/demo-pack.schema.json', demoPackJsonSchema],
  ])('%s is generated from the file format in src-main/backend/scenarios/ (run `npm run openapi`)', async (name, make) => {
    const file = resolve(name);
    expect(await readFile(file, 'utf8')).toBe(await prettier(file, JSON.stringify(make())));
  });
});
