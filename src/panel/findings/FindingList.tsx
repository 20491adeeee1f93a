import type { Finding } from '../../core/index';
import { useLens } from '../app/lens-context';
import { clip, shortId, visibleLine } from '../text/visible';
import { adviseClient, explain } from './explain';

const RANK = { error: 0, warning: 1, info: 2 } as const;
/** Findings listed at most; the rest are counted. */
export const MAX_FINDING_ROWS = 500;
/** Finding messages quote untrusted values; they are clipped for the list. */
const MESSAGE_CHARS = 400;

/**
 * Every session's findings, errors first, so nothing hides behind an unselected session. A click
 * selects the finding's session and its event in the timeline.
 */
export function FindingList() {
  const lens = useLens();
  const sessions = lens.report.value?.sessions ?? [];
  if (sessions.length === 0) return null;
  const many = sessions.length > 1;
  const all = sessions
    .flatMap((s) => s.findings.map((f) => ({ ...f, session: s.key })))
    .sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.stream - b.stream);
  const shown = all.slice(0, MAX_FINDING_ROWS);
  const select = (f: Finding & { session: string }) => {
    lens.selection.selectSession(f.session);
    const events = lens.source.value.events(f.stream);
    lens.selection.selectMark(events.length > 0 ? { stream: f.stream, event: f.event ?? 0 } : null);
  };
  return (
    <section class="findings" aria-label="Findings">
      <h2>
        Findings <span class="count">{all.length}</span>
      </h2>
      {all.length === 0 ? <p class="muted">No findings: every resume checks out.</p> : null}
      <ul>
        {shown.map((f, i) => (
          <li key={`${f.stream}:${f.event}:${f.code}:${i}`}>
            <button type="button" class={`finding finding-${f.severity}`} data-testid="finding" data-code={f.code} data-severity={f.severity} onClick={() => select(f)}>
              <span class="finding-head">
                <span class={`severity severity-${f.severity}`}>{f.severity}</span> <code>{f.code}</code>{' '}
                <span class="muted">
                  {many ? `${shortId(f.session, 10)} ` : ''}stream #{f.stream}
                  {f.event === null ? '' : `, event ${f.event}`}
                </span>
              </span>
              <span class="finding-explanation">{explain(f.code)}</span>
              <span class="finding-advice">{adviseClient(f.code)}</span>
              <span class="finding-message">{visibleLine(clip(f.message, MESSAGE_CHARS))}</span>
            </button>
          </li>
        ))}
      </ul>
      {all.length > shown.length ? <p class="muted">{all.length - shown.length} more findings not listed.</p> : null}
    </section>
  );
}
