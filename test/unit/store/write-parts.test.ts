// The journal, the history writer and data.json write lists of buffers through one
// helper: whatever a short write leaves must follow, in order, and a write that makes no
// progress must fail rather than spin. Short writes cannot be had from a real disk on
// demand, so the handle's writev is wrapped to take at most a few bytes a call (the
// bytes still go through the real file handle to a real file).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remainingAfter, writeParts } from '../../../src-main/backend/store/write-parts.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function tempFile(flags: string) {
  const dir = await mkdtemp(join(tmpdir(), 'countersign-parts-'));
  const path = join(dir, 'f');
  const fh = await open(path, flags);
  cleanups.push(async () => {
    await fh.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });
  return { path, fh };
}

/** The handle's writev takes at most `max` bytes a call (0: nothing at all). */
function shortWrites(fh: FileHandle, max: number): FileHandle {
  const writev = fh.writev.bind(fh);
  fh.writev = (async (buffers: Buffer[], position?: number) => {
    const [first] = remainingAfter(buffers, 0);
    return writev([first.subarray(0, max)], position);
  }) as FileHandle['writev'];
  return fh;
}

const parts = () => [Buffer.from('#2 '), Buffer.alloc(0), Buffer.from('héllo, '), Buffer.from('x'.repeat(1000)), Buffer.from('\n')];

describe('writeParts', () => {
  it('writes every part in order after short writes, appending or at a position', async () => {
    const a = await tempFile('a');
    expect(await writeParts(shortWrites(a.fh, 7), parts(), null, 'test')).toBe(Buffer.concat(parts()).length);
    expect((await readFile(a.path)).equals(Buffer.concat(parts()))).toBe(true);

    const b = await tempFile('w+');
    await b.fh.write('0123456789');
    await writeParts(shortWrites(b.fh, 5), parts(), 4, 'test');
    expect((await readFile(b.path)).equals(Buffer.concat([Buffer.from('0123'), ...parts()]))).toBe(true);
  });

  it('fails with EIO, naming the file, when a write makes no progress', async () => {
    const { fh } = await tempFile('a');
    await expect(writeParts(shortWrites(fh, 0), parts(), null, 'the journal')).rejects.toMatchObject({
      code: 'EIO',
      message: 'the journal: a write made no progress',
    });
  });

  it('remainingAfter cuts inside a part or on its edge', () => {
    const p = [Buffer.from('abc'), Buffer.from('de'), Buffer.from('f')];
    expect(remainingAfter(p, 0).map(String)).toEqual(['abc', 'de', 'f']);
    expect(remainingAfter(p, 2).map(String)).toEqual(['c', 'de', 'f']);
    expect(remainingAfter(p, 3).map(String)).toEqual(['de', 'f']);
    expect(remainingAfter(p, 6)).toEqual([]);
  });
});
