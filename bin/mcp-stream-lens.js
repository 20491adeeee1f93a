#!/usr/bin/env node
// Thin launcher: the CLI is TypeScript, built to dist/cli by `npm run build:cli` (run by `npm ci`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli/run.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('mcp-stream-lens: the CLI is not built yet; run `npm run build:cli` (or `npm ci`) first\n');
  process.exit(2);
}
await import(built);
