import { readFileSync } from 'node:fs';
import { readHar } from './src/core/index.js';
for (const f of ['chrome-har-hono-genuine', 'chrome-har-mcp-lite-genuine']) {
  const r = readHar(readFileSync(`test/fixtures/har/writers/${f}.har`, 'utf8'));
  if (!r.ok) continue;
  for (const e of r.exchanges) if (e.chunks.length) console.log(f, e.method, 'start', 0, 'end', (e.end.time! - e.startTime).toFixed(1), 'chunks', e.chunks.map((c) => `${(c.time - e.startTime).toFixed(1)}:${typeof c.data === 'string' ? c.data.length : c.data.length}`).join(' '));
}
