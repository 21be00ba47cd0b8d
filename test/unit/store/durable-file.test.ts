// data.json is written piece by piece through one small buffer (no copy of the whole
// text in C memory): the file must still hold exactly the text, whatever characters sit
// at the pieces' edges, and replace the previous checkpoint only once complete.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DurableJsonFile } from '../../../src-main/backend/store/durable-file.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function file() {
  const dir = await mkdtemp(join(tmpdir(), 'countersign-durable-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return new DurableJsonFile<unknown>(join(dir, 'data.json'), () => null);
}

describe('DurableJsonFile: a checkpoint written in pieces', () => {
  it('holds exactly the text, with multi-byte characters and surrogate pairs across every piece edge', async () => {
    const f = await file();
    // 43,008 UTF-16 units a piece: a 7-unit pattern with a pair shifts across the edges.
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ i, t: `é😀契${i % 10}` }));
    const text = JSON.stringify({ rows, tail: 'x'.repeat(50_000) + '😀' });
    expect(text.length).toBeGreaterThan(10 * 43_008);
    await f.writeText(text);
    const bytes = await readFile(f.path);
    expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(await f.read()).toEqual(JSON.parse(text));
    // A pair whose first half is the last unit of a piece: `{"s":"` is 6 units.
    const edge = JSON.stringify({ s: 'a'.repeat(43_008 - 1 - 6) + '😀' + 'b'.repeat(43_008) + '😀' });
    expect(edge.charCodeAt(43_007)).toBe(0xd83d);
    await f.writeText(edge);
    expect((await readFile(f.path)).equals(Buffer.from(edge, 'utf8'))).toBe(true);
  });

  it('keeps the previous checkpoint beside the new one, and writes an empty or tiny text too', async () => {
    const f = await file();
    await f.writeText('{"a":1}');
    const first = (await stat(f.path)).ino;
    await f.write({ b: '😀'.repeat(30_000) });
    expect(JSON.parse(await readFile(`${f.path}.prev`, 'utf8'))).toEqual({ a: 1 });
    expect((await stat(`${f.path}.prev`)).ino).toBe(first);
    expect(await f.read()).toEqual({ b: '😀'.repeat(30_000) });
    await f.writeText('');
    expect((await stat(f.path)).size).toBe(0);
  });
});
