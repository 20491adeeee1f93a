import type { StreamReport, Transport } from '../../core/index';
import { clip } from '../text/visible';
import type { SentMessage } from './request-info';

/** A request id as a user wrote it: `1`, or `abc` for the string "abc". */
export function idText(idKey: string): string {
  try {
    return clip(String(JSON.parse(idKey)), 24);
  } catch {
    return clip(idKey, 24);
  }
}

function describe(m: SentMessage): string {
  const id = m.idKey === undefined ? '' : ` · id ${idText(m.idKey)}`;
  if (m.method === undefined) return `response${id}`;
  return `${m.subject === undefined ? m.method : `${m.method} ${m.subject}`}${id}`;
}

/**
 * What a stream carries, in a few words: `tools/call long_task · id 1`, `resume of #3`,
 * `standalone GET`, `initialize · id 0`. `sent` is what its request body sent (sentMessages).
 */
export function streamLabel(stream: StreamReport, sent: readonly SentMessage[], transport: Transport): string {
  if (stream.lastEventId !== null) return stream.resumes === null ? 'resume from an id never delivered' : `resume of #${stream.resumes}`;
  if (stream.method === 'GET') return transport === 'http+sse' ? 'HTTP+SSE event stream' : 'standalone GET';
  if (stream.method === 'DELETE') return 'DELETE session';
  if (sent.length === 0) return `${stream.method} (no JSON-RPC body)`;
  return sent.length === 1 ? describe(sent[0]!) : `batch of ${sent.length}: ${describe(sent[0]!)}, …`;
}
