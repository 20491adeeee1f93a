import { FINDINGS, type FindingCode } from '../../core/index';

/** What a finding means, in one plain sentence, from the core's findings table. */
export const explain = (code: FindingCode): string => FINDINGS[code]?.explain ?? 'A finding of the analysis.';

/** A finding's title, from the same table. */
export const titleOf = (code: FindingCode): string => FINDINGS[code]?.title ?? code;

/** What the client's owner, and the server's and infrastructure's, should do, from the same table. */
export const adviceOf = (code: FindingCode): { client: string; server: string } => FINDINGS[code]?.advice ?? { client: '', server: '' };
