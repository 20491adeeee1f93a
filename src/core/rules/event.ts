import type { SessionState, StreamState } from '../analysis/state';
import type { MessageFacts } from '../read/facts';
import type { EventHead } from '../store/event-table';
import type { Delivery } from '../store/id-index';
import { finding, quote } from './findings';

const INTEGER_ID = /^(0|-?[1-9]\d{0,15})$/;

/**
 * The rules decided the moment an event arrives, over its SSE fields and its facts: data that is
 * not a JSON-RPC message or not valid UTF-8, an id delivered twice (`earlier` is where it was
 * first), a sequence that skips or goes back inside the stream; and the session's note of which
 * requests got their response. Work per event is constant, so feeding events one at a time never
 * re-analyses the past.
 */
export function applyEventRules(stream: StreamState, session: SessionState, index: number, head: EventHead, facts: MessageFacts, earlier: Delivery | undefined): void {
  if (head.id !== undefined) {
    if (session.allIntegerIds && !INTEGER_ID.test(head.id)) session.allIntegerIds = false;
    if (earlier) {
      session.findings.push(finding('duplicate-event-id', stream, index,
        `Event id ${quote(head.id)} was already delivered as event ${earlier.event} of stream ${earlier.stream}: a replay re-sent it, so the client may process the same message twice.`, { got: head.id }));
    }
  }
  const { role } = facts;
  if (role === 'malformed') {
    stream.findings.push(finding('malformed-event', stream, index, `Event ${index} ${facts.problem}.`));
    return;
  }
  if (role === 'empty' || role === 'endpoint' || role === 'truncated') return;
  if (facts.replacement) {
    stream.findings.push(finding('malformed-event', stream, index,
      'data holds U+FFFD replacement characters: the stream carried invalid UTF-8 (or a literal U+FFFD).'));
  }
  if (role === 'result' || role === 'error') noteResponse(session, stream, index, facts.idKey);
  if (facts.batchAnswers) for (const id of facts.batchAnswers) noteResponse(session, stream, index, id);
  if (facts.protocolVersion !== undefined && session.protocolVersion === null) session.protocolVersion = facts.protocolVersion;
  if (facts.seq) checkSequence(stream, index, facts.seq);
}

/** A response pairs with its request across the session's streams; the first delivery counts. */
function noteResponse(session: SessionState, stream: StreamState, index: number, idKey: string | undefined): void {
  if (idKey === undefined || session.responses.has(idKey)) return;
  session.responses.set(idKey, { stream: stream.index, event: index });
  const request = session.requests.get(idKey);
  if (request) session.answeredCalls.add(request.callKey);
  session.unanswered.delete(idKey);
}

function checkSequence(stream: StreamState, index: number, seq: NonNullable<MessageFacts['seq']>): void {
  const previous = stream.seqCursors.get(seq.key);
  if (!previous) {
    stream.seqCursors.set(seq.key, { value: seq.value, event: index, unitSteps: true });
    return;
  }
  const step = seq.value - previous.value;
  if (step <= 0) {
    stream.findings.push(finding('seq-regress', stream, index,
      `${seq.key} went from ${previous.value} to ${seq.value} inside one stream: a sequence must strictly increase.`, { got: seq.value, lastSeen: previous.value }));
  } else if (step > 1 && seq.kind !== 'progress') {
    stream.findings.push(finding('seq-gap', stream, index,
      `${seq.key} jumped from ${previous.value} to ${seq.value} inside a live stream: ${step - 1} value(s) never arrived.`, { expected: previous.value + 1, got: seq.value, lastSeen: previous.value }));
  }
  // Updated in place: one cursor per sequence, not one allocation per event.
  previous.unitSteps = previous.unitSteps && step === 1;
  previous.value = seq.value;
  previous.event = index;
}
