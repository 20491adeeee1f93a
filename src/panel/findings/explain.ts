import { FINDINGS, type FindingCode } from '../../core/index';

/**
 * What a finding means, in one plain sentence, from the core's findings table. The finding's own
 * message carries the evidence: ids and values.
 */
export const explain = (code: FindingCode): string => FINDINGS[code]?.explain ?? 'A finding of the analysis.';

/** What the client's owner should do about a finding, from the same table. */
export const adviseClient = (code: FindingCode): string => FINDINGS[code]?.advice.client ?? '';
