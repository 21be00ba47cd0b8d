// Preloaded into a child process (`--import`, through NODE_OPTIONS) by tests that check
// what the process has loaded: on SIGUSR2 it writes, to the file named by
// COUNTERSIGN_TEST_LOADED_FILE, every CommonJS file in require's cache and every ES module
// URL resolved so far (seen by a resolve hook, loaded-modules-hooks.mjs). It changes
// nothing the process does.
import Module, { register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';

const esm = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => esm.push(url));
port1.unref();
register('./loaded-modules-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

process.on('SIGUSR2', () => {
  const out = process.env.COUNTERSIGN_TEST_LOADED_FILE;
  if (out) writeFileSync(out, JSON.stringify({ cjs: Object.keys(Module._cache), esm }));
});
