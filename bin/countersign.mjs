#!/usr/bin/env node
// `countersign` (npx countersign … from a clone, or after npm install): builds the app
// first when out/ is missing or older than the sources (as `npm start` does), then
// runs the built command-line tool (src-main/cli).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, ensureBuilt } from '../scripts/build-state.mjs';

if (!ensureBuilt()) process.exit(3);
await import(pathToFileURL(join(ROOT, 'out', 'main', 'cli.js')).href);
