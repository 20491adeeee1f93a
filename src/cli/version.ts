import { readFileSync } from 'node:fs';

/**
 * The package's version, read from its package.json: two folders up both from src/cli (tests,
 * tsx) and from dist/cli/run.js (the built CLI), so it can never disagree with what npm installed.
 */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
