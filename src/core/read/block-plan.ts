import type { TemplateSpec } from './block-template';
import type { RecordFields } from '../store/event-table';
import { numberOf, stringOf, type Builder, type ShapeLeaf } from './json-shapes';
import { classify, keyOf, STOP_REASONS, stopReasonPlaces, type RpcMessage } from './jsonrpc';
import { isJsonPointer, pointerPath, seqPlaces, type SeqValue } from './sequence';

/**
 * How the analysis reads the payloads of one block template (see block-template.ts).
 *
 * A notification's or request's meaning follows from its shape: which keys it has, and whether
 * each is a string, a number or an object. Only the values of a few leaves change from block to
 * block. So for those the plan reads each field straight from its regex group, the way
 * `classify`, `sequenceOf` and `resumeTokenOf` would read the parsed value: the same places in
 * the same order, with the same checks on each value. Responses pair with their requests across
 * the session, which is rare enough to go the general way: `build` rebuilds the payload's read
 * parts for `describeValue`.
 *
 * block-template.test.ts checks every field of every event against the general path.
 */
export type BlockPlan = { fill: (fields: RecordFields, groups: RegExpExecArray) => void } | { build: Builder };

type Read = (groups: RegExpExecArray) => unknown;

export function compilePlan(spec: TemplateSpec, pointers: readonly string[]): BlockPlan {
  const classified = classify(spec.sample);
  // Templates learn only from payloads that are messages, so the first branch is a safeguard.
  if ('problem' in classified || classified.messages.length !== 1) return { build: spec.build };
  const message = classified.messages[0] as RpcMessage;
  const { role, method } = message;
  if (role !== 'notification' && role !== 'progress' && role !== 'request') return { build: spec.build };

  /** The reader of the leaf at `path`, if the shape has one of an accepted kind there. */
  const leafAt = (path: readonly string[], kinds: readonly ShapeLeaf['kind'][]): Read | undefined => {
    const index = spec.leaves.findIndex((leaf) => leaf.path.length === path.length && leaf.path.every((key, i) => key === path[i]));
    const leaf = spec.leaves[index];
    if (!leaf || !kinds.includes(leaf.kind)) return undefined;
    const group = spec.firstGroup + index;
    if (leaf.kind === 'number') return (groups) => numberOf(groups[group]!);
    if (leaf.kind === 'boolean') return (groups) => groups[group] === 'true';
    return (groups) => stringOf(groups[group]!);
  };
  const leavesAt = (paths: readonly (readonly string[])[], kinds: readonly ShapeLeaf['kind'][]): Read[] =>
    paths.map((path) => leafAt(path, kinds)).filter((read) => read !== undefined);

  // A progress notification may carry an id too; classify keys it whatever the role.
  const id = message.idKey !== undefined ? leafAt(['id'], ['string', 'number']) : undefined;
  const token = role === 'progress' ? leafAt(['params', 'progressToken'], ['string', 'number']) : undefined;
  const progress = role === 'progress' ? leafAt(['params', 'progress'], ['number']) : undefined;
  const appSeqs = leavesAt(seqPlaces('app_seq'), ['number']);
  const userSeqs = pointers.filter(isJsonPointer).flatMap((pointer) => {
    const read = leafAt(pointerPath(pointer), ['number']);
    return read ? [{ key: `ptr:${pointer}`, read }] : [];
  });
  const stops = leavesAt(stopReasonPlaces('params'), ['string']);
  const resumeTokens = leavesAt(seqPlaces('resume_token'), ['string']);

  // One value, rewritten for each block: the table and the sequence rule copy what they keep.
  const seq: SeqValue = { key: '', value: 0, kind: 'app_seq' };
  const seqOf = (groups: RegExpExecArray, tokenKey: string | undefined): SeqValue | undefined => {
    for (const read of appSeqs) {
      const value = read(groups) as number;
      if (Number.isSafeInteger(value)) return setSeq(seq, 'app_seq', value, 'app_seq');
    }
    if (progress && tokenKey !== undefined) {
      const value = progress(groups) as number;
      // The key is built once per token, not once per block (keyOf gives the same string back).
      if (Number.isFinite(value)) return setSeq(seq, tokenKey === lastToken ? lastProgressKey : progressKey(tokenKey), value, 'progress');
    }
    for (const { key, read } of userSeqs) {
      const value = read(groups) as number;
      if (Number.isSafeInteger(value)) return setSeq(seq, key, value, 'pointer');
    }
    return undefined;
  };
  let lastToken: string | undefined;
  let lastProgressKey = '';
  const progressKey = (tokenKey: string): string => {
    lastToken = tokenKey;
    return (lastProgressKey = `progress:${tokenKey}`);
  };
  const firstOf = (groups: RegExpExecArray, reads: readonly Read[], accept: (value: string) => boolean): string | undefined => {
    for (const read of reads) {
      const value = read(groups) as string;
      if (accept(value)) return value;
    }
    return undefined;
  };

  return {
    fill(fields, groups) {
      fields.role = role;
      fields.method = method;
      if (id) fields.idKey = keyOf(id(groups));
      const tokenKey = token ? keyOf(token(groups)) : undefined;
      if (role === 'progress') fields.progressToken = tokenKey;
      fields.seq = seqOf(groups, tokenKey);
      fields.stopReason = firstOf(groups, stops, (value) => STOP_REASONS.has(value));
      fields.resumeToken = firstOf(groups, resumeTokens, (value) => value !== '');
    },
  };
}

function setSeq(seq: SeqValue, key: string, value: number, kind: SeqValue['kind']): SeqValue {
  seq.key = key;
  seq.value = value;
  seq.kind = kind;
  return seq;
}
