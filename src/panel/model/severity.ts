import type { Finding, SessionReport, Severity } from '../../core/index';

/** Severities from worst to mildest: an index is a rank, lower is worse. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export const severityRank = (severity: Severity): number => SEVERITIES.indexOf(severity);

/** The worst severity among `findings`, or null when there are none. */
export function worstSeverity(findings: readonly Finding[]): Severity | null {
  let worst: Severity | null = null;
  for (const f of findings) if (worst === null || severityRank(f.severity) < severityRank(worst)) worst = f.severity;
  return worst;
}

/**
 * The session the panel opens on until the user picks one: the one with the worst finding (the
 * newest of those, as a live capture's latest trouble is the one being debugged), else the newest.
 */
export function troubledSession(sessions: readonly SessionReport[]): SessionReport | null {
  let best: SessionReport | null = null;
  let bestRank = SEVERITIES.length;
  for (const s of sessions) {
    const worst = worstSeverity(s.findings);
    const rank = worst === null ? SEVERITIES.length : severityRank(worst);
    if (rank <= bestRank) (best = s), (bestRank = rank);
  }
  return best;
}
