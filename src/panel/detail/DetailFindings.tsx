import type { Finding } from '../../core/index';
import { explain, titleOf } from '../findings/explain';
import { evidenceSentence } from '../findings/finding-groups';
import { clip, visibleLine } from '../text/visible';

/** The findings about what the detail shows: title, evidence and what it means. */
export function DetailFindings({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul class="detail-findings">
      {findings.map((f, i) => (
        <li key={i} class={`finding-${f.severity}`}>
          <span class={`severity severity-${f.severity}`}>{f.severity}</span> <strong>{titleOf(f.code)}</strong> <code>{f.code}</code>
          <p>{visibleLine(clip(evidenceSentence(f.message), 400))}</p>
          <p class="muted">{explain(f.code)}</p>
        </li>
      ))}
    </ul>
  );
}
