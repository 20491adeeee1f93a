import { useComputed } from '@preact/signals';
import { useLens } from '../app/lens-context';
import { shortId } from '../text/visible';
import { FindingCard } from './FindingCard';
import { instanceKey } from './finding-groups';

/** Finding cards listed at most; the rest are counted. */
export const MAX_FINDING_CARDS = 500;

/**
 * Every session's findings, errors first, so nothing hides behind an unselected session: one card
 * per code and session, with a count. A click selects what the finding points at; Up/Down move
 * between cards, n / p (or F8 / Shift+F8) from anywhere in the panel.
 */
export function FindingList() {
  const lens = useLens();
  // Through computeds: a live report is rebuilt every frame, and the cards change only with the findings.
  const sessions = useComputed(() => lens.report.value?.sessions.length ?? 0).value;
  if (sessions === 0) return null;
  const groups = lens.findingGroups.value;
  const count = groups.reduce((n, g) => n + g.items.length, 0);
  const shown = groups.slice(0, MAX_FINDING_CARDS);
  const cursor = lens.findingCursor.value;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const cards = [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLElement>('[data-testid="finding"]')];
    const at = cards.indexOf(document.activeElement as HTMLElement);
    const next = cards[Math.min(cards.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (!next) return;
    e.preventDefault();
    next.focus();
    next.click();
  };
  return (
    <section class="findings" aria-label="Findings">
      <h2>
        Findings <span class="count">{count}</span>
        {count > 0 ? <span class="muted keys"> n / p: next, previous</span> : null}
      </h2>
      {count === 0 ? <p class="muted">No findings: every resume checks out.</p> : null}
      <ul onKeyDown={onKeyDown}>
        {shown.map((g) => (
          <FindingCard
            key={g.key}
            group={g}
            session={sessions > 1 ? shortId(g.session, 10) : null}
            current={cursor !== null && g.items.some((f) => instanceKey(f) === cursor) ? cursor : null}
          />
        ))}
      </ul>
      {groups.length > shown.length ? <p class="muted">{groups.length - shown.length} more finding cards not listed.</p> : null}
    </section>
  );
}
