import type { StreamState } from '../analysis/state';
import type { Finding, StreamReport } from '../report';
import { finding } from './findings';

/** Why a body is absent when the recorder did not say. */
const NOT_KEPT = 'the recorder kept none of it';

/**
 * How much of a stream's body the capture holds: none (the recorder did not keep it), up to a
 * reset or a cancel, or all that arrived.
 */
export function bodyOf(stream: StreamState): NonNullable<StreamReport['body']> {
  if (stream.end.bodyAbsent) return 'absent';
  if (stream.end.bodyClipped) return 'partial';
  return stream.end.state === 'reset' || stream.end.state === 'cancelled' ? 'partial' : 'full';
}

/**
 * The one finding of a stream whose body was not captured: info, or a warning when a verdict
 * waits on it (`waiting`: what does, in words). It says the writer's limit and how to get the body,
 * since nothing is concluded from events no one recorded.
 */
export function bodyNotCaptured(stream: StreamState, waiting: readonly string[]): Finding {
  const depends = waiting.length === 0 ? '' : ` This leaves open ${[...new Set(waiting)].join(', and ')}.`;
  const head = `The body of this ${stream.request.method} (status ${stream.response?.status ?? 0})`;
  if (stream.end.bodyClipped) {
    return finding('body-not-captured', stream, null,
      `${head} was captured only in part: ${stream.end.bodyClipped}. Its events up to there are read; those after it are unknown, so nothing is concluded from their absence.${depends}`,
      undefined, undefined, waiting.length > 0);
  }
  const why = typeof stream.end.bodyAbsent === 'string' ? stream.end.bodyAbsent : NOT_KEPT;
  return finding('body-not-captured', stream, null,
    `${head} was not captured: ${why}. Its events are unknown, so nothing is concluded from their absence.${depends} To see them, capture live in the DevTools panel, or record through mcp-stream-lens proxy.`,
    undefined, undefined, waiting.length > 0);
}
