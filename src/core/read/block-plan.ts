import type { TemplateSpec } from './block-template';
import { emptyFacts, pointerReads, type FactReader, type MessageFacts } from './facts';
import { numberOf, stringOf, type ShapeLeaf } from './json-shapes';
import { keyOf } from './jsonrpc';
import { READS, type Read } from './message-reads';
import type { SeqValue } from './sequence';

/**
 * How a learned block template reads facts (see block-template.ts). A message's shape decides its
 * role and method, and which places of the table (message-reads.ts) hold a leaf of an accepted
 * kind: the general reader settles those once, on the template's sample. Only the leaves' values
 * change from block to block, so for each block the plan reads just those, from their regex
 * groups, and applies each read's own `accept`, as the general reader does on a parsed value.
 *
 * A plan fills one facts record, rewritten for each block: the event table and the rules copy what
 * they keep. block-template.test.ts checks every event's facts against the general reader.
 */
export type BlockPlan = (groups: RegExpExecArray) => MessageFacts;

type Group = (groups: RegExpExecArray) => unknown;

/**
 * Templates learn only from blocks whose payload is one JSON-RPC message (a batch is an array,
 * which no shape holds), so the sample's facts are a message's.
 */
export function compilePlan(spec: TemplateSpec, pointers: readonly string[], general: FactReader): BlockPlan {
  const sample = general(spec.sample, '');
  const { role, method } = sample;

  /** The group reader of the leaf at `path`, when the shape has one of an accepted kind there. */
  const leafAt = (path: readonly string[], kinds: Read<unknown>['kinds']): Group | undefined => {
    const index = spec.leaves.findIndex((leaf) => leaf.path.length === path.length && leaf.path.every((key, i) => key === path[i]));
    const leaf: ShapeLeaf | undefined = spec.leaves[index];
    if (!leaf || !kinds.includes(leaf.kind)) return undefined;
    const group = spec.firstGroup + index;
    if (leaf.kind === 'number') return (groups) => numberOf(groups[group]!);
    if (leaf.kind === 'boolean') return (groups) => groups[group] === 'true';
    return (groups) => stringOf(groups[group]!);
  };
  /** The value of `read` in a match: the first accepted leaf, as `valueOf` takes it. */
  const compile = <T,>(read: Read<T>): ((groups: RegExpExecArray) => T | undefined) | undefined => {
    const places = read.paths.map((path) => leafAt(path, read.kinds)).filter((place) => place !== undefined);
    if (places.length === 0) return undefined;
    return (groups) => {
      for (const place of places) {
        const value = place(groups);
        if (read.accept(value)) return value;
      }
      return undefined;
    };
  };

  const id = sample.idKey !== undefined ? compile(READS.id) : undefined;
  const token = role === 'progress' ? compile(READS.progressToken) : undefined;
  const progress = role === 'progress' ? compile(READS.progress) : undefined;
  const appSeq = compile(READS.appSeq);
  const userSeqs = pointerReads(pointers).flatMap(({ key, read }) => {
    const value = compile(read);
    return value ? [{ key, value }] : [];
  });
  const stop = compile(method === undefined ? READS.resultStop : READS.requestStop);
  const resumeToken = compile(READS.resumeToken);
  const protocolVersion = sample.protocolVersion !== undefined ? compile(READS.protocolVersion) : undefined;

  const facts = emptyFacts(role);
  facts.method = method;
  const seq: SeqValue = { key: '', value: 0, kind: 'app_seq' };
  // A stream repeats its progress token: its key and sequence key are built once per token.
  let lastToken: string | number | undefined;
  let tokenKey: string | undefined;
  let progressKey = '';
  const seqOf = (groups: RegExpExecArray): SeqValue | undefined => {
    const value = appSeq?.(groups);
    if (value !== undefined) return setSeq(seq, 'app_seq', value, 'app_seq');
    if (progress && tokenKey !== undefined) {
      const step = progress(groups);
      if (step !== undefined) return setSeq(seq, progressKey, step, 'progress');
    }
    for (const user of userSeqs) {
      const found = user.value(groups);
      if (found !== undefined) return setSeq(seq, user.key, found, 'pointer');
    }
    return undefined;
  };

  return (groups) => {
    if (id) facts.idKey = keyOf(id(groups));
    if (token) {
      const raw = token(groups);
      if (raw !== lastToken) {
        lastToken = raw;
        tokenKey = keyOf(raw);
        progressKey = `progress:${tokenKey}`;
      }
      facts.progressToken = tokenKey;
    }
    facts.seq = seqOf(groups);
    facts.stopReason = stop?.(groups);
    facts.resumeToken = resumeToken?.(groups);
    facts.protocolVersion = protocolVersion?.(groups);
    return facts;
  };
}

function setSeq(seq: SeqValue, key: string, value: number, kind: SeqValue['kind']): SeqValue {
  seq.key = key;
  seq.value = value;
  seq.kind = kind;
  return seq;
}
