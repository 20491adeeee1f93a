import type { BlockPlan } from '../read/block-plan';
import type { BlockMatch, BlockTemplates } from '../read/block-template';
import { classify, isRecord, MESSAGE_READS, type RpcMessage } from '../read/jsonrpc';
import type { KeepTree, ShapeParser } from '../read/json-shapes';
import { finding, quote } from '../rules/findings';
import type { RecordFields } from '../store/event-table';
import { pointerPath, resumeTokenOf, SEQUENCE_READS, sequenceOf, type SeqValue } from '../read/sequence';
import type { SseEvent } from '../read/sse';
import type { SessionState, StreamState } from './state';

const INTEGER_ID = /^(0|-?[1-9]\d{0,15})$/;

/**
 * Gives one framed event its meaning and applies the rules that can be decided the moment it
 * arrives: malformed data, duplicate ids, and sequence gaps or regressions inside the stream.
 * Work per event is constant, so feeding events one at a time never re-analyses the past.
 */
export function ingestEvent(stream: StreamState, session: SessionState, event: SseEvent, context: IngestContext, rawAt = -1): void {
  const fields = describe(event, stream, stream.events.length, context);
  if (rawAt >= 0) placeData(fields, event.raw!, rawAt);
  record(stream, session, fields);
}

/**
 * Points `fields` at its data where it stands in the text store, `raw` standing at `rawAt`
 * there: when the block's one `data:` line is its last, as servers write it. Otherwise the
 * table keeps a copy (several `data:` lines are joined with "\n", and stand nowhere as one text).
 */
function placeData(fields: RecordFields, raw: string, rawAt: number): void {
  const { data } = fields;
  // The data line is last: the block ends in the data, then the blank line.
  const at = raw.length - 2 - data.length;
  if (data === '' || at < 5 || !raw.startsWith(data, at) || raw.includes('\r')) return;
  // "data:" then one optional space (which the parser strips), at the start of a line.
  const line = raw.startsWith('data: ', at - 6) ? at - 6 : raw.startsWith('data:', at - 5) ? at - 5 : -1;
  if (line < 0 || (line > 0 && raw.charCodeAt(line - 1) !== 10)) return;
  // And the block's only data line: none starts the block, nor any line before this one.
  if (line > 0 && (raw.startsWith('data:') || raw.lastIndexOf('\ndata:', line - 2) >= 0)) return;
  fields.dataAt = rawAt + at;
  fields.dataLength = data.length;
}

/**
 * Ingests a block a template matched in `text` (see block-template.ts): the same rules on the
 * same fields, read by the template's plan (see block-plan.ts).
 */
export function ingestBlock(stream: StreamState, session: SessionState, text: string, block: BlockMatch<BlockPlan>, time: number, context: IngestContext, base: number): void {
  const { plan } = block;
  // With the chunk in the text store (at `base`), the event's text is where it already is, and a
  // plan that reads the groups needs no `data` string at all.
  const data = base >= 0 && 'fill' in plan ? '' : text.slice(block.dataStart, block.end - 2);
  const fields = emptyFields(time, block.id, block.event, data);
  if (base >= 0) {
    fields.dataAt = base + block.dataStart;
    fields.dataLength = block.end - 2 - block.dataStart;
    if (block.idStart >= 0) fields.idAt = base + block.idStart;
  }
  if ('fill' in plan) plan.fill(fields, block.groups);
  else describeValue(fields, plan.build(block.groups), stream, stream.events.length, context);
  // The id is hashed where it stands in the chunk (see IdIndex.add).
  if (block.idStart >= 0) record(stream, session, fields, text, block.idStart);
  else record(stream, session, fields);
}

/**
 * Adds `fields` to the stream and applies the per-event rules. The id stands in `idText` from
 * `idStart` when given, else alone in `fields.id`.
 */
function record(stream: StreamState, session: SessionState, fields: RecordFields, idText?: string, idStart = 0): void {
  const index = stream.events.length;
  stream.events.append(fields);
  if (!fields.truncated) stream.completeEvents++;
  if (fields.id !== undefined) noteId(session, stream, index, fields.id, idText ?? fields.id, idStart);
  if (fields.role === 'malformed' || fields.role === 'truncated') return;
  if (fields.seq) checkSequence(stream, index, fields.seq);
}

/** What every event of one analysis shares: the user's pointers and the payload readers. */
export interface IngestContext {
  pointers: readonly string[];
  json: ShapeParser;
  templates: BlockTemplates<BlockPlan>;
}

/** The parts of a payload the rules read, for `pointers`: what a block template rebuilds. */
export function keepTreeFor(pointers: readonly string[]): KeepTree {
  const paths = [...MESSAGE_READS, ...SEQUENCE_READS, ...PAIRING_READS, ...pointers.map(pointerPath)];
  const root = new Map<string, Map<string, unknown>>();
  // A node some path ends at keeps its whole value (an empty tree), whatever else passes through.
  const whole = new Set<Map<string, unknown>>();
  for (const path of paths) {
    let node = root;
    for (const key of path) {
      if (whole.has(node)) break;
      let next = node.get(key);
      if (!next) node.set(key, (next = new Map()));
      node = next as typeof root;
    }
    whole.add(node);
    node.clear();
  }
  return root.size === 0 || whole.has(root) ? new Map() : (root as KeepTree);
}

/** A record with only its time, id, type and data set, as a framed event gives them. */
export function emptyFields(time: number, id: string | undefined, event: string | undefined, data: string): RecordFields {
  return {
    time,
    id,
    event,
    data,
    retry: undefined,
    idOnly: false,
    truncated: false,
    role: 'empty',
    method: undefined,
    idKey: undefined,
    seq: undefined,
    progressToken: undefined,
    stopReason: undefined,
    resumeToken: undefined,
    idAt: -1,
    dataAt: -1,
    dataLength: 0,
  };
}

function describe(event: SseEvent, stream: StreamState, index: number, context: IngestContext): RecordFields {
  const fields = emptyFields(event.time, event.id, event.event, event.data);
  fields.retry = event.retry;
  fields.idOnly = event.idOnly === true;
  fields.truncated = event.truncated === true;
  if (event.truncated) fields.role = 'truncated';
  else if (event.event === 'endpoint') fields.role = 'endpoint';
  if (event.truncated || event.data === '' || event.event === 'endpoint') return fields;
  let parsed: unknown;
  try {
    parsed = context.json.parse(event.data);
  } catch {
    return malformed(fields, stream, index, `data is not JSON: ${quote(event.data)}`);
  }
  describeValue(fields, parsed, stream, index, context);
  // A block the framer fed alone teaches the templates its layout; not one that earned a warning.
  if (event.raw !== undefined && fields.role !== 'malformed' && !event.data.includes('\uFFFD')) context.templates.learn(event.raw, parsed);
  return fields;
}

/** Gives `fields` the meaning of its parsed payload and applies the rules that need the payload. */
function describeValue(fields: RecordFields, parsed: unknown, stream: StreamState, index: number, context: IngestContext): RecordFields {
  const classified = classify(parsed);
  if ('problem' in classified) return malformed(fields, stream, index, `data is ${classified.problem}: ${quote(fields.data)}`);
  if (fields.data.includes('\uFFFD')) {
    stream.findings.push(finding('malformed-event', stream, index,
      'data holds U+FFFD replacement characters: the stream carried invalid UTF-8 (or a literal U+FFFD).', undefined, fields.time));
  }
  const [first] = classified.messages as [RpcMessage, ...RpcMessage[]];
  fields.role = first.role;
  fields.method = first.method;
  fields.idKey = first.idKey;
  if (first.role === 'progress') fields.progressToken = first.progressToken;
  for (const message of classified.messages) {
    const seq = sequenceOf(message, context.pointers);
    if (seq && !fields.seq) fields.seq = seq;
    if (message.stopReason && !fields.stopReason) fields.stopReason = message.stopReason;
    const token = resumeTokenOf(message);
    if (token && !fields.resumeToken) fields.resumeToken = token;
    notePairing(stream, index, message);
  }
  return fields;
}

function malformed(fields: RecordFields, stream: StreamState, index: number, message: string): RecordFields {
  fields.role = 'malformed';
  stream.findings.push(finding('malformed-event', stream, index, `Event ${index} ${message}.`, undefined, fields.time));
  return fields;
}

/** What {@link notePairing} reads of a message, besides what `classify` reads. */
const PAIRING_READS: readonly (readonly string[])[] = [['result', 'protocolVersion'], ['result', 'serverInfo']];

/** Responses pair with requests across streams; initialize results name the revision. */
function notePairing(stream: StreamState, index: number, message: RpcMessage): void {
  const session = stream.session!;
  if ((message.role === 'result' || message.role === 'error') && message.idKey !== undefined) {
    if (!session.responses.has(message.idKey)) {
      session.responses.set(message.idKey, { stream: stream.index, event: index });
      const request = session.requests.get(message.idKey);
      if (request) session.answeredCalls.add(request.callKey);
      session.unanswered.delete(message.idKey);
    }
    const result = message.value.result;
    if (session.protocolVersion === null && isRecord(result) && typeof result.protocolVersion === 'string' && 'serverInfo' in result) {
      session.protocolVersion = result.protocolVersion;
    }
  }
}

/** `id` stands in `text` from `start` (see IdIndex.add). */
function noteId(session: SessionState, stream: StreamState, index: number, id: string, text: string, start: number): void {
  if (session.allIntegerIds && !INTEGER_ID.test(id)) session.allIntegerIds = false;
  const first = session.ids.add(id, stream.index, index, text, start);
  if (!first) return;
  session.findings.push(finding('duplicate-event-id', stream, index,
    `Event id ${quote(id)} was already delivered as event ${first.event} of stream ${first.stream}: a replay re-sent it, so the client may process the same message twice.`, { got: id }));
}

function checkSequence(stream: StreamState, index: number, seq: SeqValue): void {
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


