// Is out/ up to date with the sources? Shared by `npm start` (scripts/start.mjs) and the
// `countersign` command (bin/countersign.mjs): both build first when it is not, so a
// fresh clone works after `npm install` alone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

const OUTPUTS = ['out/main/index.js', 'out/main/headless.js', 'out/main/cli.js', 'out/preload/preload.cjs', 'out/renderer/index.html'];
const SOURCES = ['src-main', 'src-shared', 'src-renderer', 'resources', 'native', 'electron.vite.config.ts', 'package.json'];

function newestMtime(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  // Files only: a folder's time also moves when an editor drops a temp file in it.
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry.startsWith('.') || entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Does out/ need a build? Missing outputs, or a source newer than the oldest output. */
export function buildState(root = ROOT) {
  const missing = OUTPUTS.filter((o) => !existsSync(join(root, o)));
  if (missing.length > 0) return { needed: true, reason: `${missing[0]} is missing` };
  const oldestOutput = Math.min(...OUTPUTS.map((o) => statSync(join(root, o)).mtimeMs));
  const newestSource = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  return newestSource > oldestOutput ? { needed: true, reason: 'the sources changed since the last build' } : { needed: false, reason: '' };
}

export function build(root = ROOT) {
  const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  // Build output goes to stderr: stdout is kept for the ready line.
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) return false;
  // The same second step as `npm run build`: the optional native module (it says why when it is not built).
  const native = spawnSync(process.execPath, [join(root, 'scripts', 'build-native.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
  return native.status === 0;
}

/** Builds when needed, saying why on stderr; false when the build failed. */
export function ensureBuilt(root = ROOT) {
  const state = buildState(root);
  if (!state.needed) return true;
  console.error(`Building Countersign (${state.reason})…`);
  if (build(root)) return true;
  console.error('countersign: the build failed (see above).');
  return false;
}
