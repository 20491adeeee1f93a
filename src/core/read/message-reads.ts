import { isRecord } from './jsonrpc';
import type { KeepTree } from './json-shapes';

/**
 * Every value the rules read from a JSON-RPC message, and where it may stand, in one table. Both
 * readers follow it: the general one walks these paths in each parsed message (facts.ts), and a
 * learned block template reads the same paths from its regex groups (block-plan.ts). A template
 * captures only these leaves (see {@link keepTreeFor}), so a rule that needs a new field adds it
 * here, once, and both readers give it.
 */

/** A key path into a message. */
export type Path = readonly string[];

/** The JSON kinds of leaf a block template may capture. */
export type LeafKind = 'string' | 'number' | 'boolean';

/**
 * One value: the places it may stand, tried in order, and what is accepted there. The first
 * place whose value `accept`s gives it. A template captures only leaves of `kinds` at `paths`.
 */
export interface Read<T> {
  paths: readonly Path[];
  kinds: readonly LeafKind[];
  accept: (value: unknown) => value is T;
}

/** The ways a message may say "I am done" (snake_case as agents write it, camelCase as MCP does). */
export const STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'stop', 'stop_sequence', 'max_tokens', 'endTurn', 'stopSequence', 'maxTokens']);

const isKeyable = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';
const isSeqNumber = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isToken = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isStopReason = (value: unknown): value is string => typeof value === 'string' && STOP_REASONS.has(value);
const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * Where the tool's own counter (and a `resume_token` beside it) may sit: top level (the field
 * report's servers), `params`, `params._meta` or `result._meta` (the spec's extension point).
 */
const seqPlaces = (name: string): Path[] => [[name], ['params', name], ['params', '_meta', name], ['result', '_meta', name]];
/** Where a container says it is done: itself, or its `data` (a `notifications/message`). */
const stopPlaces = (container: string): Path[] =>
  [[container, 'stop_reason'], [container, 'stopReason'], [container, 'data', 'stop_reason'], [container, 'data', 'stopReason']];

/** The table. Which message roles read which entry is the readers' one piece of logic (facts.ts). */
export const READS = Object.freeze({
  /** A request's or response's id (keyed with `keyOf`). */
  id: { paths: [['id']], kinds: ['string', 'number'], accept: isKeyable } as Read<string | number>,
  /** A progress notification's token and value. */
  progressToken: { paths: [['params', 'progressToken']], kinds: ['string', 'number'], accept: isKeyable } as Read<string | number>,
  progress: { paths: [['params', 'progress']], kinds: ['number'], accept: isFiniteNumber } as Read<number>,
  /** The tool's own counter: an integer. */
  appSeq: { paths: seqPlaces('app_seq'), kinds: ['number'], accept: isSeqNumber } as Read<number>,
  /** A hash of the server's buffer head, echoed on a resume. */
  resumeToken: { paths: seqPlaces('resume_token'), kinds: ['string'], accept: isToken } as Read<string>,
  /** Where a message with a method says it is done, and where a result does. */
  requestStop: { paths: stopPlaces('params'), kinds: ['string'], accept: isStopReason } as Read<string>,
  resultStop: { paths: stopPlaces('result'), kinds: ['string'], accept: isStopReason } as Read<string>,
  /** An initialize result's revision (a result is one when it also names `serverInfo`). */
  protocolVersion: { paths: [['result', 'protocolVersion']], kinds: ['string'], accept: isText } as Read<string>,
});

/** A user's sequence pointer, read as the app_seq places are. */
export function pointerRead(path: Path): Read<number> {
  return { paths: [path], kinds: ['number'], accept: isSeqNumber };
}

/** The value of `read` in `root`: the first accepted value at its places, in order. */
export function valueOf<T>(root: unknown, read: Read<T>): T | undefined {
  for (const path of read.paths) {
    const value = at(root, path);
    if (read.accept(value)) return value;
  }
  return undefined;
}

/**
 * The value at `path`, as an RFC 6901 pointer resolves it: an object's own key, or an array's
 * index (a user's pointer may name one).
 */
export function at(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      node = node[Number(key)];
    } else if (isRecord(node) && Object.hasOwn(node, key)) {
      node = node[key];
    } else {
      return undefined;
    }
  }
  return node;
}

/** Structure the readers test besides the table's values: what makes a message's role. */
const ROLE_READS: readonly Path[] = [['jsonrpc'], ['method'], ['error'], ['result', 'serverInfo']];

/**
 * The parts of a payload the readers read, for the user's `pointers`: what a block template
 * captures. A node some path ends at is kept whole (an empty tree), whatever else passes through.
 */
export function keepTreeFor(pointers: readonly Path[]): KeepTree {
  const paths = [...ROLE_READS, ...Object.values(READS).flatMap((read) => read.paths), ...pointers];
  const root = new Map<string, Map<string, unknown>>();
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
