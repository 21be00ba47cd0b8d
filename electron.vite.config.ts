import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// The folders are not electron-vite's defaults (src/main, src/preload, src/renderer),
// so every input is named here. The main build has three entries: the Electron entry,
// the headless Node entry and the `countersign` command, which share the backend and
// never share Electron.
const alias = { '@shared': resolve('src-shared') };

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      // zod is bundled (every other dependency stays in node_modules): its index loads
      // every part of zod, its ~60 message locales included, and bundled only the parts in
      // use are kept (about 1.5 MiB less idle memory; docs/architecture.md, a lean start).
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: {
        // V8 keeps a script's whole source text in its heap for as long as the process
        // runs (lazy compilation reads it again). Without comments and with every non-ASCII
        // character escaped it is about half the size and stored one byte a character,
        // not two: the backend chunk's 1.38 MB in the heap became 0.6 MB.
        output: { comments: false, charset: 'ascii' },
        input: {
          index: resolve('src-main/index.ts'),
          headless: resolve('src-main/headless.ts'),
          cli: resolve('src-main/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { preload: resolve('src-main/preload.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    base: '/app/',
    resolve: { alias },
    plugins: [react()],
    // electron-vite forces base './' on production renderer builds (made for file://
    // pages); the console is served over HTTP under /app/, where deep links such as
    // /app/settings/webhooks need absolute asset URLs.
    experimental: { renderBuiltUrl: (file: string) => `/app/${file}` },
    build: {
      outDir: resolve('out/renderer'),
      // electron-vite leaves renderer bundles unminified by default.
      minify: true,
      emptyOutDir: true,
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
