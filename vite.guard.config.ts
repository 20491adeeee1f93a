import { defineConfig } from 'vite';

// `mcp-stream-lens/guard`: src/guard plus the pure core, one ESM file for Node and browsers.
// The SDK is the app's own (a peer dependency); eventsource-parser is ours (a dependency).
// Its types are bundled beside it by dts-bundle-generator (see the build:guard script).
export default defineConfig({
  // No icons from public/ in a Node bundle (they would ship in the npm package).
  publicDir: false,
  build: {
    lib: { entry: 'src/guard/index.ts', formats: ['es'], fileName: () => 'index.js' },
    outDir: 'dist/guard',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    rollupOptions: { external: [/^@modelcontextprotocol\/sdk(\/|$)/, /^eventsource-parser(\/|$)/] },
  },
});
