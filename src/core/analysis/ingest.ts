import type { BlockPlan } from '../read/block-plan';
import type { BlockTemplates } from '../read/block-template';
import { emptyFacts, notJson, type FactReader, type MessageFacts } from '../read/facts';
import type { ShapeParser } from '../read/json-shapes';
import type { ChunkPlace, FedBlock, SseEvent } from '../read/sse';
import { applyEventRules } from '../rules/event';
import type { EventHead } from '../store/event-table';
import type { SessionState, StreamState } from './state';

/**
 * Where the two readers of an SSE block meet. The general reader ({@link readEvent}) takes what
 * the framer gives: eventsource-parser's event, its payload parsed and read by the table of
 * message-reads.ts. The learned reader ({@link readBlocks}) takes whole blocks a block template
 * matches, and reads the same table from the regex groups. Both end in {@link recordEvent} with the
 * same three things: the event's SSE fields, where its text is, and its {@link MessageFacts}. From
 * there on, storage keeps the event and the rules read only the facts.
 */

/** What every event of one analysis shares: the readers. */
export interface Readers {
  /** Facts from a parsed payload (the general reader). */
  facts: FactReader;
  /** JSON.parse, or the parser that learns the shapes a stream repeats (`shapes`, json-shapes.ts). */
  parse: (text: string) => unknown;
  shapes?: ShapeParser;
  /** Learned block templates; undefined when the learned readers are off. */
  templates: BlockTemplates<BlockPlan> | undefined;
  /** Where a template-read block stands, rewritten for each block (see ChunkPlace). */
  place: ChunkPlace;
}

const NOT_JSON = Symbol('not JSON');

/** The general reader: one event the framer gave (`block` when it was fed alone). */
export function readEvent(readers: Readers, stream: StreamState, session: SessionState, event: SseEvent, block: FedBlock | undefined): void {
  let facts: MessageFacts;
  if (event.truncated) facts = emptyFacts('truncated');
  else if (event.event === 'endpoint') facts = emptyFacts('endpoint');
  else if (event.data === '') facts = emptyFacts();
  else {
    let parsed: unknown = NOT_JSON;
    try {
      parsed = readers.parse(event.data);
    } catch {
      // Not JSON: said in the facts.
    }
    facts = parsed === NOT_JSON ? notJson(event.data) : readers.facts(parsed, event.data);
    // A block fed alone teaches the templates its layout; not one whose facts earned a warning
    // (a template could not give the same facts).
    if (block && readers.templates && facts.role !== 'malformed' && !facts.replacement) readers.templates.learn(block.raw, parsed);
  }
  recordEvent(stream, session, event, block?.place ?? event.data, facts);
}

/**
 * The learned reader: takes the blocks a template matches from `at` of `text` and returns where it
 * stopped (see BlockReader). `source` is the chunk, when positions in `text` are positions in it.
 */
export function readBlocks(readers: Readers, stream: StreamState, session: SessionState, text: string, at: number, time: number, source: Uint8Array | string | undefined): number {
  const { templates, place } = readers;
  if (!templates) return at;
  for (let block = templates.match(text, at); block; block = templates.match(text, at)) {
    const head: EventHead = { time, id: block.id, event: block.event, retry: undefined, idOnly: undefined, truncated: undefined };
    place.text = text;
    place.chunk = source;
    place.dataAt = block.dataStart;
    place.dataLength = block.end - 2 - block.dataStart;
    place.idAt = block.idStart;
    recordEvent(stream, session, head, place, block.plan(block.groups));
    at = block.end;
  }
  // The place is valid only during recordEvent; it must not keep the chunk alive (see sse.ts).
  place.text = '';
  place.chunk = undefined;
  return at;
}

/** The meeting point: stores one event, then applies the rules that can be decided as it arrives. */
function recordEvent(stream: StreamState, session: SessionState, head: EventHead, text: string | ChunkPlace, facts: MessageFacts): void {
  const index = stream.events.append(head, text, facts);
  if (!head.truncated) stream.completeEvents++;
  let earlier;
  if (head.id !== undefined) {
    // The id is hashed where it stands in the chunk, when the place says where (see IdIndex.add).
    earlier = typeof text !== 'string' && text.idAt >= 0 ? session.ids.add(head.id, stream.index, index, text.text, text.idAt) : session.ids.add(head.id, stream.index, index);
  }
  applyEventRules(stream, session, index, head, facts, earlier);
}
