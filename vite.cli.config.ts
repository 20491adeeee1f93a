import { defineConfig } from 'vite';

// The CLI bundle: src/cli/run.ts plus the pure core, as one ESM file for Node 20.
export default defineConfig({
  // No icons from public/ in a Node bundle (they would ship in the npm package).
  publicDir: false,
  build: {
    ssr: 'src/cli/run.ts',
    outDir: 'dist/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: { output: { entryFileNames: 'run.js', format: 'es' } },
  },
  ssr: { noExternal: true },
});
