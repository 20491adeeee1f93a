import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The inline shell: the panel on a plain page (src/panel/shell) -> dist/shell, with relative
// asset paths so it opens from any static server or sub-path.
export default defineConfig({
  root: resolve(import.meta.dirname, 'src/panel/shell'),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: resolve(import.meta.dirname, 'dist/shell'),
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
  },
});
