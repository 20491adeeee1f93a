import { defineConfig } from 'vite';

// The CLI bundle: src/cli/run.ts plus the pure core, as ESM for Node 20, and the proxy's
// analysis worker as an entry of its own beside it (the proxy starts it by its file name). Code
// both share goes in a shared-HASH.js chunk beside them (named after one of its modules, it would mislead).
export default defineConfig({
  // No icons from public/ in a Node bundle (they would ship in the npm package).
  publicDir: false,
  build: {
    ssr: true,
    outDir: 'dist/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: { run: 'src/cli/run.ts', 'analysis-worker': 'src/proxy/analysis-worker.ts' },
      output: { entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js', format: 'es' },
    },
  },
  ssr: { noExternal: true },
});
