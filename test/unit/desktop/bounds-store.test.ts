// Window bounds: restored only when valid and reachable on a current display; read
// from and written to a real file in a temp folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS, readBounds, restoreBounds, writeBounds } from '../../../src-main/desktop/bounds-store.js';

const ONE_DISPLAY = [{ x: 0, y: 0, width: 1920, height: 1040 }];
const TWO_DISPLAYS = [...ONE_DISPLAY, { x: 1920, y: 0, width: 2560, height: 1400 }];

describe('restoreBounds', () => {
  it('keeps valid bounds that are on a display', () => {
    expect(restoreBounds({ x: 100, y: 50, width: 1200, height: 800, maximized: true }, ONE_DISPLAY)).toEqual({
      x: 100,
      y: 50,
      width: 1200,
      height: 800,
      maximized: true,
    });
    expect(restoreBounds({ x: 2000, y: 100, width: 1600, height: 900 }, TWO_DISPLAYS)).toMatchObject({ x: 2000, width: 1600 });
  });

  it('falls back to the defaults when the window would be off-screen', () => {
    // On the second display, which is gone now.
    expect(restoreBounds({ x: 2000, y: 100, width: 1600, height: 900 }, ONE_DISPLAY)).toEqual(DEFAULT_BOUNDS);
    // Title bar above the top of the screen.
    expect(restoreBounds({ x: 100, y: -500, width: 1200, height: 400 }, ONE_DISPLAY)).toEqual(DEFAULT_BOUNDS);
    // Only a sliver of the title bar on screen.
    expect(restoreBounds({ x: 1880, y: 100, width: 1200, height: 800 }, ONE_DISPLAY)).toEqual(DEFAULT_BOUNDS);
    // No displays reported at all.
    expect(restoreBounds({ x: 0, y: 0, width: 1200, height: 800 }, [])).toEqual(DEFAULT_BOUNDS);
  });

  it('shrinks a window larger than its display', () => {
    expect(restoreBounds({ x: 0, y: 0, width: 5000, height: 3000 }, ONE_DISPLAY)).toMatchObject({ width: 1920, height: 1040 });
  });

  it('falls back to the defaults for anything malformed', () => {
    for (const bad of [
      null,
      'x',
      [],
      {},
      { x: 0, y: 0, width: 10, height: 10 },
      { x: 0, y: 0, width: 1.5e3 + 0.5, height: 800 },
      { x: '0', y: 0, width: 1200, height: 800 },
      { x: 0, y: 0, width: Infinity, height: 800 },
      { x: NaN, y: 0, width: 1200, height: 800 },
    ]) {
      expect(restoreBounds(bad, ONE_DISPLAY), JSON.stringify(bad)).toEqual(DEFAULT_BOUNDS);
    }
  });
});

describe('readBounds / writeBounds (real files)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'countersign-bounds-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips through the file', async () => {
    const file = join(dir, 'window-state.json');
    await writeBounds(file, { x: 40, y: 30, width: 1000, height: 700, maximized: false });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ x: 40, y: 30, width: 1000, height: 700, maximized: false });
    expect(await readBounds(file, ONE_DISPLAY)).toEqual({ x: 40, y: 30, width: 1000, height: 700, maximized: false });
  });

  it('gives the defaults for a missing or corrupt file', async () => {
    expect(await readBounds(join(dir, 'missing.json'), ONE_DISPLAY)).toEqual(DEFAULT_BOUNDS);
    const corrupt = join(dir, 'corrupt.json');
    await writeFile(corrupt, '{"x": 10, "y": 1');
    expect(await readBounds(corrupt, ONE_DISPLAY)).toEqual(DEFAULT_BOUNDS);
  });

  it('gives the defaults for a file whose window is now off-screen', async () => {
    const file = join(dir, 'window-state.json');
    await writeBounds(file, { x: 3000, y: 200, width: 1000, height: 700, maximized: false });
    expect(await readBounds(file, ONE_DISPLAY)).toEqual(DEFAULT_BOUNDS);
  });
});
