import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Five projects: unit (pure modules and parts against a real temp folder), api (HTTP
// on loopback against a backend on port 0), renderer (components and hooks in jsdom),
// cli (the `countersign` command as a child process), e2e (the built headless entry
// driven by Debian's Chromium through Playwright).
export default defineConfig({
  resolve: { alias: { '@shared': resolve('src-shared') } },
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', testTimeout: 20000 } },
      {
        extends: true,
        test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node', testTimeout: 30000, hookTimeout: 30000 },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 20000,
          setupFiles: ['test/renderer/setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'cli', include: ['test/cli/**/*.test.ts'], environment: 'node', testTimeout: 60000, hookTimeout: 60000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60000,
          hookTimeout: 60000,
          fileParallelism: false,
        },
      },
    ],
  },
});
