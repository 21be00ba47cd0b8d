// Builds Countersign's one native module, out/native/malloc-trim.node (native/malloc-trim.c:
// glibc's malloc_trim for the idle collection, docs/architecture.md, Memory), with the C
// compiler ($CC or cc) and the headers of the Node running this script. Where either is
// missing, or the C library is not glibc, it says why and builds nothing: the service
// runs the same without the module, and only gives less memory back when idle.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'native', 'malloc-trim.c');
const target = join(root, 'out', 'native', 'malloc-trim.node');
const cc = process.env.CC || 'cc';

/** The folder of Node's headers (node_api.h): next to the binary (official builds) or the system's (Debian's nodejs). */
export function nodeHeaders() {
  const dirs = [resolve(dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node', '/usr/local/include/node'];
  return dirs.find((dir) => existsSync(join(dir, 'node_api.h')));
}

function skip(why) {
  console.log(
    `build-native: out/native/malloc-trim.node not built (${why}); the service runs without it and gives less memory back when idle`,
  );
}

/** Whether this process runs on glibc (malloc_trim exists only there). */
export function isGlibc() {
  return process.platform === 'linux' && process.report?.getReport().header.glibcVersionRuntime !== undefined;
}

function main() {
  if (!isGlibc()) return skip(`${process.platform === 'linux' ? 'the C library' : process.platform} is not glibc`);
  const headers = nodeHeaders();
  if (!headers) return skip("Node's headers (node_api.h) not found");
  mkdirSync(dirname(target), { recursive: true });
  try {
    execFileSync(cc, ['-O2', '-shared', '-fPIC', '-Wall', '-DNODE_GYP_MODULE_NAME=malloc_trim', `-I${headers}`, '-o', target, source], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch (err) {
    return skip(err.code === 'ENOENT' ? `no C compiler (${cc})` : `${cc} failed`);
  }
  console.log(`build-native: built out/native/malloc-trim.node (${cc}, ${headers})`);
}

// Run as a script (npm run build, build-state.mjs); imported, it only lends its checks (tests).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
