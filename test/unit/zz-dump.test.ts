import { test } from 'vitest';
import { analyze } from '../../src/core';
import { scenarios } from '../support/scenarios';
test('dump', () => {
  for (const [name, make] of Object.entries(scenarios)) {
    const r = analyze(make());
    console.log(name, JSON.stringify(r.sessions.map(s => ({ key: s.key, t: s.transport, v: s.protocolVersion, n: s.streams.map(x => `${x.index}:${x.method}:${x.status}:${x.events}:${x.end}:${x.resumes}`), resumes: s.resumes.map(x => x.verdict), f: s.findings.map(f => `${f.code}@${f.stream}/${f.event}`) }))));
  }
});
