// How `npm start` decides (scripts/start.mjs): where Electron's binary is (read from
// the electron package's path.txt, never by requiring it, which would download),
// whether out/ is stale, and what it says when the fetch fails. Real temp folders
// stand in for the project root; nothing here downloads anything.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronBinary, fetchFailureReason, hasDisplay, parseReadyLine, startEnv } from '../../../scripts/start.mjs';
import { buildState } from '../../../scripts/build-state.mjs';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'countersign-start-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text = 'x', mtimeSec?: number): Promise<void> {
  const full = join(root, path);
  await mkdir(join(full, '..'), { recursive: true });
  await writeFile(full, text);
  if (mtimeSec !== undefined) await utimes(full, mtimeSec, mtimeSec);
}

describe('electronBinary', () => {
  it('says the package is missing', () => {
    expect(electronBinary(root, {})).toEqual({ path: null, reason: expect.stringMatching(/not installed/) });
  });
  it('says the binary was never downloaded (no path.txt)', async () => {
    await put('node_modules/electron/package.json', '{}');
    expect(electronBinary(root, {})).toEqual({ path: null, reason: 'it was never downloaded' });
  });
  it('says the binary file is missing', async () => {
    await put('node_modules/electron/package.json', '{}');
    await put('node_modules/electron/path.txt', 'electron');
    expect(electronBinary(root, {}).reason).toMatch(/dist\/electron is missing/);
  });
  it('finds the binary, and honours ELECTRON_OVERRIDE_DIST_PATH', async () => {
    await put('node_modules/electron/package.json', '{}');
    await put('node_modules/electron/path.txt', 'electron');
    await put('node_modules/electron/dist/electron');
    expect(electronBinary(root, {})).toEqual({ path: join(root, 'node_modules/electron/dist/electron'), reason: '' });
    await put('custom/electron');
    expect(electronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: join(root, 'custom') }).path).toBe(join(root, 'custom/electron'));
    expect(electronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: join(root, 'nowhere') }).path).toBeNull();
  });
});

describe('buildState', () => {
  const outputs = ['out/main/index.js', 'out/main/headless.js', 'out/main/cli.js', 'out/preload/preload.cjs', 'out/renderer/index.html'];

  it('needs a build when an output is missing', async () => {
    await put('src-main/index.ts', '', 1000);
    expect(buildState(root)).toEqual({ needed: true, reason: 'out/main/index.js is missing' });
  });
  it('needs none when every output is newer than every source', async () => {
    await put('src-main/desktop/a.ts', '', 1000);
    await put('package.json', '{}', 1000);
    for (const o of outputs) await put(o, '', 2000);
    expect(buildState(root).needed).toBe(false);
  });
  it('needs one when a source (deep in a folder) changed after the build', async () => {
    for (const o of outputs) await put(o, '', 2000);
    await put('src-renderer/screens/x/Screen.tsx', '', 3000);
    expect(buildState(root)).toEqual({ needed: true, reason: 'the sources changed since the last build' });
  });
});

describe('messages and checks', () => {
  it('picks the telling line of a failed fetch, not the stack', () => {
    const output =
      'RequestError: getaddrinfo ENOTFOUND github.com\n    at ClientRequest.<anonymous> (/x/got/index.js:1:1)\n    at emit (node:events:1:1)';
    expect(fetchFailureReason(output, 1, false)).toBe('RequestError: getaddrinfo ENOTFOUND github.com');
    expect(fetchFailureReason('', 1, false)).toBe('the installer exited with code 1');
    expect(fetchFailureReason('whatever', null, true)).toMatch(/^no answer within \d+ s$/);
  });
  it('reads the ready line and nothing else', () => {
    const line = JSON.stringify({
      ready: true,
      api_url: 'http://127.0.0.1:1',
      app_url: 'x',
      receiver_url: 'y',
      console_url: 'http://127.0.0.1:1/app/#token=t',
    });
    expect(parseReadyLine(line)?.console_url).toBe('http://127.0.0.1:1/app/#token=t');
    expect(parseReadyLine('Building…')).toBeNull();
    expect(parseReadyLine('{"ready":false}')).toBeNull();
  });
  it('knows Linux needs a display server', () => {
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({}, 'darwin')).toBe(true);
  });
  it("gives what it runs the README's dev admin key unless COUNTERSIGN_ADMIN_KEY is set (empty: none)", () => {
    expect(startEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', COUNTERSIGN_ADMIN_KEY: 'cs_dev_admin' });
    expect(startEnv({ COUNTERSIGN_ADMIN_KEY: 'cs_mine' }).COUNTERSIGN_ADMIN_KEY).toBe('cs_mine');
    expect(startEnv({ COUNTERSIGN_ADMIN_KEY: '' }).COUNTERSIGN_ADMIN_KEY).toBe('');
  });
});
