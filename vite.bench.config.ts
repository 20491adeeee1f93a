import { defineConfig } from 'vite';

// The core benchmark as one ESM file for plain Node: the core as the CLI ships it (see bench/run.ts).
export default defineConfig({
  build: {
    ssr: 'bench/core.ts',
    outDir: 'dist/bench',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'core.js', format: 'es' } },
  },
  ssr: { noExternal: true },
  publicDir: false,
  logLevel: 'warn',
});
