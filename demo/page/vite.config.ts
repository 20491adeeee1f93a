import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The demo client page: `vite build --config demo/page/vite.config.ts` -> dist/demo-page/.
// The demo launcher serves it on the same origin as the load balancers (see demo/launch/site.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, '../../dist/demo-page'),
    emptyOutDir: true,
    // Readable in the Sources panel next to what MCP Streams shows.
    minify: false,
    sourcemap: true,
  },
});
