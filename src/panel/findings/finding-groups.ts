import type { Finding, FindingCode, SessionReport, Severity } from '../../core/index';
import { severityRank } from '../model/severity';

/** A finding and the session it was found in. */
export interface FindingInstance extends Finding {
  session: string;
}

/** Findings of one code in one session: shown once, with a count. */
export interface FindingGroup {
  key: string;
  code: FindingCode;
  severity: Severity;
  session: string;
  items: FindingInstance[];
}

/** Identifies one finding across reports (a live report is rebuilt every frame). */
export const instanceKey = (f: FindingInstance): string => `${f.session}\u0000${f.stream}\u0000${f.event ?? ''}\u0000${f.code}`;

/**
 * Every session's findings, one group per code and session, worst first, then in capture order.
 * A session that raised the same finding on twenty events shows one card that says ×20.
 */
export function groupFindings(sessions: readonly SessionReport[]): FindingGroup[] {
  const groups: FindingGroup[] = [];
  const order = new Map<FindingGroup, number>();
  for (const s of sessions) {
    const byCode = new Map<string, FindingGroup>();
    for (const f of s.findings) {
      const key = `${s.key}\u0000${f.code}\u0000${f.severity}`;
      let group = byCode.get(key);
      if (!group) {
        byCode.set(key, (group = { key, code: f.code, severity: f.severity, session: s.key, items: [] }));
        order.set(group, groups.push(group));
      }
      group.items.push({ ...f, session: s.key });
    }
  }
  return groups.sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || order.get(a)! - order.get(b)!);
}

/**
 * The evidence of a finding in one short sentence: its message up to the first full stop. The
 * core's messages go on with what to do, which the cards give from the findings table instead.
 */
export function evidenceSentence(message: string): string {
  const end = /\.\s+(?=[A-Z])/.exec(message);
  return end ? message.slice(0, end.index + 1) : message;
}

/** The finding after (`step` 1) or before (-1) the one keyed `current`, in list order, wrapping. */
export function stepFinding(groups: readonly FindingGroup[], current: string | null, step: 1 | -1): FindingInstance | null {
  const all = groups.flatMap((g) => g.items);
  if (all.length === 0) return null;
  const at = current === null ? -1 : all.findIndex((f) => instanceKey(f) === current);
  if (at < 0) return step === 1 ? all[0]! : all.at(-1)!;
  return all[(at + step + all.length) % all.length]!;
}
