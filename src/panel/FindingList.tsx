import type { Report } from '../core/index';

/** All findings of all sessions, errors first. */
export function FindingList({ report }: { report: Report }) {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const all = report.sessions.flatMap((s) => s.findings).sort((a, b) => rank[a.severity] - rank[b.severity]);
  if (all.length === 0) return null;
  return (
    <ul class="findings">
      {all.map((f, i) => (
        <li key={i} data-testid="finding" data-code={f.code} data-severity={f.severity} class={`finding finding-${f.severity}`}>
          <strong>{f.code}</strong> (stream #{f.stream}
          {f.event === null ? '' : `, event ${f.event}`}): {f.message}
        </li>
      ))}
    </ul>
  );
}
