// The built entry of `countersign` (out/main/cli.js), run by bin/countersign.mjs.
import { runCli } from './main.js';

runCli(process.argv.slice(2)).then((code) => process.exit(code));
