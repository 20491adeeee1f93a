import { defineConfig } from 'vite';

// The core's benchmarks as ESM files for plain Node: the core as the CLI ships it (see bench/run.ts).
export default defineConfig({
  build: {
    ssr: true,
    outDir: 'dist/bench',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { input: { core: 'bench/core.ts', 'core-floor': 'bench/core-floor.ts', 'core-store': 'bench/core-store.ts' }, output: { entryFileNames: '[name].js', format: 'es' } },
  },
  ssr: { noExternal: true },
  publicDir: false,
  logLevel: 'warn',
});
