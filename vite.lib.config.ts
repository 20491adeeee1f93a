import { defineConfig } from 'vite';

// The library: `mcp-stream-lens` (src/lib/index.ts, the pure core: Node and bundlers) and
// `mcp-stream-lens/playwright` (src/lib/playwright.ts, Node: it reads HAR files), as ESM that
// share one chunk. eventsource-parser is ours (a dependency); Node's modules stay imports.
// Types are bundled beside each by dts-bundle-generator (see the build:lib script).
export default defineConfig({
  publicDir: false,
  build: {
    lib: { entry: { index: 'src/lib/index.ts', playwright: 'src/lib/playwright.ts' }, formats: ['es'], fileName: (_format, name) => `${name}.js` },
    outDir: 'dist/lib',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: { external: [/^node:/, /^eventsource-parser(\/|$)/] },
  },
});
