import { crx } from '@crxjs/vite-plugin';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { manifestFor, type Target } from './manifest.config';

// `vite build --mode chrome` -> dist/chrome, `--mode firefox` -> dist/firefox. The mode is the
// target; code that must differ reads the build-time __TARGET__, never the user agent.
export default defineConfig(({ mode }) => {
  const target: Target = mode.startsWith('firefox') ? 'firefox' : 'chrome';
  // `chrome-pregrant`: the tests' build, installed with the optional permissions already granted.
  const pregrant = mode.endsWith('-pregrant');
  return {
    define: { __TARGET__: JSON.stringify(target) },
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    plugins: [crx({ manifest: manifestFor(target, { pregrant }), browser: target })],
    build: {
      outDir: `dist/${pregrant ? `${target}-pregrant` : target}`,
      emptyOutDir: true,
      // Extension pages are not minified: reviewers read them, and size does not matter here.
      minify: false,
      sourcemap: false,
      rollupOptions: { input: { panel: resolve(import.meta.dirname, 'src/entries/panel.html') } },
    },
  };
});
