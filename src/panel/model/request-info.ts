import { clip, visibleLine } from '../text/visible';

/** One JSON-RPC message a request body sent. */
export interface SentMessage {
  /** The method; absent for a response the client sent back (a sampling result, say). */
  method?: string;
  /** The id as the analysis keys it (`JSON.stringify`, so `1` and `"1"` stay apart). */
  idKey?: string;
  /** What the call is about: a tool's or prompt's name, a resource's URI. */
  subject?: string;
}

/** Messages read from one body at most: a batch of thousands is named by its first ones. */
export const MAX_SENT_MESSAGES = 64;
/** Characters of a method, name or URI kept for labels. */
const LABEL_CHARS = 60;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? visibleLine(clip(value, LABEL_CHARS)) : undefined);

/** The subject of the calls whose params name one. */
function subjectOf(method: string, params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const p = params as Record<string, unknown>;
  if (method === 'tools/call' || method === 'prompts/get') return text(p.name);
  if (method.startsWith('resources/')) return text(p.uri);
  return undefined;
}

/**
 * The JSON-RPC messages a request body sent, read once per stream. Bodies that are not JSON-RPC
 * give none. Page content: every string is clipped and made visible, never trusted.
 */
export function sentMessages(body: string | undefined): SentMessage[] {
  if (!body) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const out: SentMessage[] = [];
  for (const message of (Array.isArray(parsed) ? parsed : [parsed]).slice(0, MAX_SENT_MESSAGES)) {
    if (typeof message !== 'object' || message === null) continue;
    const m = message as { id?: unknown; method?: unknown; params?: unknown };
    const sent: SentMessage = {};
    if (typeof m.method === 'string') {
      sent.method = visibleLine(clip(m.method, LABEL_CHARS));
      const subject = subjectOf(m.method, m.params);
      if (subject !== undefined) sent.subject = subject;
    }
    if (typeof m.id === 'string' || typeof m.id === 'number') sent.idKey = JSON.stringify(m.id);
    if (sent.method !== undefined || sent.idKey !== undefined) out.push(sent);
  }
  return out;
}

/** The JSON-RPC ids a body sent, as the analysis keys them. */
export const requestIdKeys = (body: string | undefined): string[] => sentMessages(body).flatMap((m) => (m.idKey === undefined ? [] : [m.idKey]));
