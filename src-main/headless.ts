// The headless entry (docs/api.md section 2): the whole backend and the console page,
// no window. Prints one JSON ready line on stdout, stops cleanly on SIGTERM/SIGINT.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './backend/config.js';
import { createBackend } from './backend/index.js';
import { DataDirLockedError } from './backend/store/data-dir-lock.js';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`countersign: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const backend = createBackend(config, { rendererDir: join(here, '..', 'renderer'), instanceFile: true });
  let addresses;
  try {
    addresses = await backend.start();
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`countersign: ${err.message}`);
      return 3;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(
        `countersign: a port is already in use (${(err as Error).message}). Pick another with --port / --receiver-port, or 0 for a free one.`,
      );
      return 4;
    }
    throw err;
  }
  for (const w of backend.warnings) console.error(`countersign: warning: ${w}`);
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.error(`countersign: ${signal} received, stopping (persisting in-flight work)…`);
      backend.stop().then(
        () => resolve(0),
        (err) => {
          console.error('countersign: error while stopping:', err);
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
  // Handlers first, ready line second: a script may signal the moment it reads the line.
  process.stdout.write(JSON.stringify({ ready: true, ...addresses }) + '\n');
  return stopped;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('countersign: failed to start:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
