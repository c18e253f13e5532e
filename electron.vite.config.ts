import { resolve, relative, sep } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { memoisedMicromarkExtensions } from './scripts/vite-micromark';

const root = import.meta.dirname;
const src = (path: string): string => resolve(root, 'src', path);

/**
 * The sandboxed preload may contain only itself, the zod-free channel table and `electron`.
 * Anything else (zod, node builtins, a dependency) would either bloat it or fail to load in the
 * sandbox, so the build fails instead.
 */
function preloadImportGuard(): Plugin {
  const allowed = [src('preload') + sep, src('shared/channels.ts')];
  return {
    name: 'switchboard:preload-import-guard',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          if (id.startsWith('\0')) continue;
          if (!allowed.some((ok) => id === ok || id.startsWith(ok))) {
            this.error(`the preload must import only src/shared/channels.ts, but it bundles ${relative(root, id)}`);
          }
        }
        const external = chunk.imports.filter((name) => name !== 'electron');
        if (external.length > 0) this.error(`the preload must require only 'electron', not ${external.join(', ')}`);
      }
    },
  };
}

export default defineConfig({
  main: {
    build: {
      // cli.js, demo-agent.js, watchdog.js, db-worker.js and git-runner.js also run under plain
      // Node 20 (`serve`, agent processes, the host's watchdog, database worker and git runner).
      target: 'node20.19',
      // package.json `dependencies` (better-sqlite3, ws, the ACP SDK) stay in node_modules; zod
      // is bundled: read from node_modules it is ~100 small modules, each resolved, read and
      // compiled at start (≈40 ms of `serve`'s start-up, ADR 0027). The ACP SDK, read on the
      // first agent's start, keeps its own copy from node_modules; no schema crosses the two.
      externalizeDeps: { exclude: ['zod'] },
      sourcemap: true,
      rolldownOptions: {
        input: {
          // Reads `--switchboard-role` first (the app's own helpers), then loads main.ts.
          index: src('main/app/entry.ts'),
          cli: src('main/cli.ts'),
          'demo-agent': src('agents/demo/demo-agent.ts'),
          watchdog: src('main/brokers/watchdog/main.ts'),
          // A worker thread for long database work (backup checks, the storage report).
          'db-worker': src('main/datadir/db-worker.ts'),
          // The small helper process that starts git's processes for the host (ADR 0033).
          'git-runner': src('main/workspace/git/git-runner.mjs'),
        },
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          // Shared chunks sit beside the entries, so `import.meta.dirname` is `out/main` in
          // every file (the host finds demo-agent.js, watchdog.js and the renderer relative to it).
          chunkFileNames: '[name]-[hash].js',
        },
      },
    },
  },
  preload: {
    plugins: [preloadImportGuard()],
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: src('preload/index.ts') },
        // Sandboxed preloads cannot be ES modules; `.cjs` keeps it CommonJS under "type": "module".
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: src('renderer'),
    plugins: [react(), memoisedMicromarkExtensions(root)],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // Served over the network by `serve` too (an SSH tunnel is slow): ship it small.
      minify: true,
      rolldownOptions: {
        // The service worker of the served app is its own entry, at a fixed address (`/sw.js`):
        // a worker's scope is its folder, and the page registers it by name.
        input: { index: src('renderer/index.html'), sw: src('renderer/src/pwa/sw.ts') },
        output: {
          entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        },
      },
    },
  },
});
