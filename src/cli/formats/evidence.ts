import type { FindingEvidence } from '../../core';

/** A finding's evidence in a few words (`expected 7, got 12, entry 5`), or '' when it has none. */
export function evidenceText(evidence: FindingEvidence | undefined): string {
  if (evidence === undefined) return '';
  const parts: string[] = [];
  if (evidence.expected !== undefined) parts.push(`expected ${JSON.stringify(evidence.expected)}`);
  if (evidence.got !== undefined) parts.push(`got ${JSON.stringify(evidence.got)}`);
  if (evidence.lastSeen !== undefined) parts.push(`last seen ${JSON.stringify(evidence.lastSeen)}`);
  if (evidence.entry !== undefined) parts.push(`HAR entry ${evidence.entry}`);
  // A hostile HAR's time may be past what a Date holds.
  if (evidence.time !== undefined && Math.abs(evidence.time) <= 8.64e15) parts.push(`at ${new Date(evidence.time).toISOString()}`);
  return parts.join(', ');
}
