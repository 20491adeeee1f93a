import { classify, keyOf, type RpcMessage, type RpcRole } from './jsonrpc';
import { pointerRead, READS, valueOf, type Read } from './message-reads';
import { isJsonPointer, pointerPath, type SeqValue } from './sequence';

/**
 * What one event's payload says, as the rules read it: the one meeting point of the two readers.
 * The general reader ({@link createFactReader}) and a learned block template (block-plan.ts) each
 * produce this record, and nothing after them reads a payload again.
 */
export interface MessageFacts {
  /**
   * The JSON-RPC role of the (first) message, or what the event is instead: `endpoint` for the
   * legacy handshake, `empty` for a priming or id-only block, `truncated` for a block the body's
   * end cut off, `malformed` for data that is not a JSON-RPC message (see `problem`).
   */
  role: RpcRole | 'endpoint' | 'empty' | 'malformed' | 'truncated';
  method: string | undefined;
  /** The request id of a request or response, as a key (see `keyOf`). */
  idKey: string | undefined;
  /** A progress notification's token, as a key. */
  progressToken: string | undefined;
  /** The application-sequence value: app_seq, else progress, else a user pointer. */
  seq: SeqValue | undefined;
  /** The message claims the work is done (`end_turn`, `stopReason`…). */
  stopReason: string | undefined;
  resumeToken: string | undefined;
  /** The revision an initialize result names. */
  protocolVersion: string | undefined;
  /** Request ids that further messages of a batch answer (the first message's is `idKey`). */
  batchAnswers: string[] | undefined;
  /** Why the data is `malformed`, in words for a finding. */
  problem: string | undefined;
  /**
   * The data holds U+FFFD: the stream carried invalid UTF-8 (or a literal U+FFFD). A learned
   * template never matches such data (json-shapes.ts refuses the character), so only the general
   * reader sets it.
   */
  replacement: boolean;
}

/** Facts with only a role: an event that carries no message. */
export function emptyFacts(role: MessageFacts['role'] = 'empty'): MessageFacts {
  return {
    role,
    method: undefined,
    idKey: undefined,
    progressToken: undefined,
    seq: undefined,
    stopReason: undefined,
    resumeToken: undefined,
    protocolVersion: undefined,
    batchAnswers: undefined,
    problem: undefined,
    replacement: false,
  };
}

/** The user's sequence pointers, each with its sequence key, once validated. */
export interface PointerRead {
  key: string;
  read: Read<number>;
}

export function pointerReads(pointers: readonly string[]): PointerRead[] {
  return pointers.filter(isJsonPointer).map((pointer) => ({ key: `ptr:${pointer}`, read: pointerRead(pointerPath(pointer)) }));
}

/** How much of a bad payload a problem quotes. */
const QUOTE_CHARS = 60;
const quote = (text: string): string => JSON.stringify(text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text);

/**
 * The general reader: facts from a parsed payload, by the table of message-reads.ts. `data` is the
 * payload's text (quoted in a problem, and checked for U+FFFD).
 */
export type FactReader = (parsed: unknown, data: string) => MessageFacts;

export function createFactReader(pointers: readonly string[]): FactReader {
  const userSeqs = pointerReads(pointers);
  return (parsed, data) => {
    const facts = emptyFacts();
    const classified = classify(parsed);
    if ('problem' in classified) return malformed(facts, `data is ${classified.problem}: ${quote(data)}`);
    const [first, ...rest] = classified.messages as [RpcMessage, ...RpcMessage[]];
    facts.role = first.role;
    facts.method = first.method;
    facts.idKey = first.idKey;
    facts.replacement = data.includes('\uFFFD');
    if (first.role === 'progress') facts.progressToken = keyOf(valueOf(first.value, READS.progressToken));
    for (const message of classified.messages) {
      const value = message.value;
      facts.seq ??= sequenceOf(message, message === first ? facts.progressToken : keyOf(valueOf(value, READS.progressToken)), userSeqs);
      facts.stopReason ??= valueOf(value, message.method === undefined ? READS.resultStop : READS.requestStop);
      facts.resumeToken ??= valueOf(value, READS.resumeToken);
      if (message.role === 'result' && message.idKey !== undefined && facts.protocolVersion === undefined && isInitializeResult(value)) {
        facts.protocolVersion = valueOf(value, READS.protocolVersion);
      }
    }
    for (const message of rest) {
      if ((message.role === 'result' || message.role === 'error') && message.idKey !== undefined) (facts.batchAnswers ??= []).push(message.idKey);
    }
    return facts;
  };
}

/** Facts for data that is not a JSON-RPC message: the reason, in words. */
export function malformed(facts: MessageFacts, problem: string): MessageFacts {
  facts.role = 'malformed';
  facts.problem = problem;
  return facts;
}

/** Facts for data that is not JSON at all. */
export function notJson(data: string): MessageFacts {
  return malformed(emptyFacts(), `data is not JSON: ${quote(data)}`);
}

/** An initialize result names `serverInfo` beside the revision. */
function isInitializeResult(value: Record<string, unknown>): boolean {
  const result = value.result;
  return typeof result === 'object' && result !== null && !Array.isArray(result) && 'serverInfo' in result;
}

/** app_seq, else a progress notification's value for its token, else the first user pointer. */
function sequenceOf(message: RpcMessage, tokenKey: string | undefined, userSeqs: readonly PointerRead[]): SeqValue | undefined {
  const appSeq = valueOf(message.value, READS.appSeq);
  if (appSeq !== undefined) return { key: 'app_seq', value: appSeq, kind: 'app_seq' };
  if (message.role === 'progress' && tokenKey !== undefined) {
    const progress = valueOf(message.value, READS.progress);
    if (progress !== undefined) return { key: `progress:${tokenKey}`, value: progress, kind: 'progress' };
  }
  for (const { key, read } of userSeqs) {
    const value = valueOf(message.value, read);
    if (value !== undefined) return { key, value, kind: 'pointer' };
  }
  return undefined;
}
