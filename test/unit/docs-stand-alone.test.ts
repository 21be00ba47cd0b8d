// The project's docs stand alone (issue 12): nothing in the repository points at design
// notes that are not in it, and every link between the docs reaches a file that exists.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Spelled in pieces so that this file does not name them itself.
const ABSENT = ['CONTRACT', 'DESIGN'].map((name) => `${name}.md`);
const FOLDERS = ['docs', 'src-main', 'src-renderer', 'src-shared', 'test', 'scripts', 'bin', 'bench'];

async function filesUnder(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(md|ts|tsx|mjs|js|json|css|html)$/.test(e.name) && !e.parentPath.includes('results'))
    .map((e) => join(e.parentPath, e.name));
}

describe('the docs stand alone', () => {
  it('no doc, source comment or test refers to a notes file that is not in the repository', async () => {
    const files = [...(await Promise.all(FOLDERS.map(filesUnder))).flat(), 'README.md', 'eslint.config.js'];
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const name of ABSENT) if (text.includes(name)) found.push(`${file} mentions ${name}`);
    }
    expect(found).toEqual([]);
  });

  it('every relative Markdown link between the docs reaches a file', async () => {
    const docs = [...(await filesUnder('docs')).filter((f) => f.endsWith('.md')), 'README.md'];
    const broken: string[] = [];
    for (const doc of docs) {
      const text = await readFile(doc, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        if (!existsSync(resolve(dirname(doc), target!))) broken.push(`${doc} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
