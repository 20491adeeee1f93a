import { readFileSync, readdirSync } from 'node:fs';
import { analyze, readHar } from './src/core/index.js';
const dir = 'test/fixtures/har/writers';
for (const f of readdirSync(dir).filter((n) => n.endsWith('.har')).sort()) {
  const r = readHar(readFileSync(`${dir}/${f}`, 'utf8'));
  if (!r.ok) { console.log(f, r.reason); continue; }
  console.log(`== ${f} problems=${JSON.stringify(r.problems)}`);
  for (const e of r.exchanges) console.log(`  #${e.entry} ${e.method} ${e.status} end=${JSON.stringify(e.end)} chunks=${e.chunks.length} body=${e.body ? JSON.parse(e.body).method ?? 'json' : '-'}`);
  const rep = analyze(r.exchanges);
  for (const s of rep.sessions) {
    console.log(`  session ${s.transport} ${s.protocolVersion} streams=${s.streams.map((x) => `${x.index}:${x.method}:${x.events}:${x.end}`).join(' ')} resumes=${s.resumes.map((x) => `${x.stream}<-${x.of}:${x.verdict}`).join(',')}`);
    console.log(`  findings ${s.findings.map((x) => `${x.severity}:${x.code}`).join(' ')}`);
  }
}
