import { useLens } from '../app/lens-context';
import { clip, visibleLine } from '../text/visible';
import { adviceOf, explain, titleOf } from './explain';
import { evidenceSentence, instanceKey, type FindingGroup, type FindingInstance } from './finding-groups';

/** A finding's evidence quotes untrusted values; it is clipped for the card. */
const EVIDENCE_CHARS = 240;
/** Instances of a group offered as buttons at most; the count says how many there are. */
const MAX_INSTANCES = 24;

const where = (f: FindingInstance): string => `#${f.stream}${f.event === null ? '' : ` · event ${f.event}`}`;

/**
 * One finding, or several identical ones (same code, same session) with a count: what happened
 * in one sentence of evidence, then one line for whoever owns the client and one for whoever owns
 * the server and the infrastructure, both from the core's findings table.
 */
export function FindingCard({ group, session, current }: { group: FindingGroup; session: string | null; current: string | null }) {
  const lens = useLens();
  const first = group.items[0]!;
  const advice = adviceOf(group.code);
  const many = group.items.length > 1;
  return (
    <li class={`finding-card finding-${group.severity}${current ? ' current' : ''}`}>
      <button
        type="button"
        class="finding"
        data-testid="finding"
        data-code={group.code}
        data-severity={group.severity}
        data-count={group.items.length}
        aria-current={current ? 'true' : undefined}
        title={explain(group.code)}
        onClick={() => lens.goToFinding(first)}
      >
        <span class="finding-head">
          <span class={`severity severity-${group.severity}`}>{group.severity}</span> <span class="finding-title">{titleOf(group.code)}</span>
          {many ? (
            <span class="finding-count">
              ×{group.items.length}
              <span class="sr-only"> times</span>
            </span>
          ) : null}
        </span>
        <span class="finding-where muted">
          <code>{group.code}</code> {session ? `${session} ` : ''}
          {where(first)}
        </span>
        <span class="finding-evidence">{visibleLine(clip(evidenceSentence(first.message), EVIDENCE_CHARS))}</span>
        <span class="finding-advice">
          <span class="advice-who">Client</span> {advice.client}
        </span>
        <span class="finding-advice">
          <span class="advice-who">Server</span> {advice.server}
        </span>
      </button>
      {many ? (
        <ul class="finding-instances" aria-label={`Each of the ${group.items.length}`}>
          {group.items.slice(0, MAX_INSTANCES).map((f) => (
            <li key={instanceKey(f)}>
              <button type="button" data-testid="finding-instance" aria-current={current === instanceKey(f) ? 'true' : undefined} onClick={() => lens.goToFinding(f)}>
                {where(f)}
              </button>
            </li>
          ))}
          {group.items.length > MAX_INSTANCES ? <li class="muted">+{group.items.length - MAX_INSTANCES} more (n / p)</li> : null}
        </ul>
      ) : null}
    </li>
  );
}
