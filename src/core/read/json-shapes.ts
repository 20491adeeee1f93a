import { escapeRegExp } from './escape-regexp';
import { LearnedPatterns } from './learned-patterns';

/**
 * A JSON.parse that learns the shapes a stream repeats. A long agent session is mostly one
 * progress notification sent thousands of times, with only its numbers and strings changing. For
 * such a shape we compile a regular expression that matches exactly the compact JSON text of that
 * shape, so anything it matches is valid JSON, and rebuild the value from its captures: a regex
 * that fails or matches in one pass, with no general grammar to follow, costs less than JSON.parse
 * even with the rebuilding. Any text no learned shape matches, every malformed payload included,
 * goes to JSON.parse.
 *
 * Only objects of objects and scalars are learned: arrays vary in length, so a payload that holds
 * one is always read by JSON.parse.
 */

/** The structure of one learnable value. Strings, numbers and booleans are captured. */
export type Shape =
  | { kind: 'object'; keys: string[]; values: Shape[] }
  | { kind: 'string' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'null' }
  | { kind: 'constant'; value: string };

/** Rebuilds a shape's value from a match; compiled once into closures (extension pages forbid eval). */
export type Builder = (match: RegExpExecArray) => unknown;

/**
 * The parts of a value someone reads, by key: a key maps to the parts of its value to keep, and
 * an empty tree keeps the value whole. See {@link builderOf}.
 */
export type KeepTree = ReadonlyMap<string, KeepTree>;

/**
 * Shapes tried before JSON.parse. A payload no shape matches pays one failed try per shape (each
 * fails within its first few dozen characters), so a handful is enough: progress, log messages.
 */
const MAX_SHAPES = 4;
/** Bounds on a learnable value, so one compiled pattern stays small. */
const MAX_DEPTH = 4;
const MAX_NODES = 32;
/** Top-level string fields that name a message kind: matched literally, not captured. */
const CONSTANT_KEYS = new Set(['jsonrpc', 'method']);

// RFC 8259's string and number. A string's characters are anything but `"`, `\` and control
// characters, or one of the escapes. U+FFFD is refused too, though JSON allows it: a payload
// holding one earns a warning (invalid UTF-8 on the wire), which only the general reader gives
// (see MessageFacts.replacement). The string is written unrolled, plain characters in one run
// between escapes (`C*(?:E C*)*`, not `(?:C|E)*`): the engine then loops over a run without
// recording a backtrack point per character. No escape starts with a plain character, so a text
// that fails still costs one pass.
const STRING_CHAR = '[^"\\\\\\x00-\\x1f\\uFFFD]';
const STRING_BODY = `${STRING_CHAR}*(?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})${STRING_CHAR}*)*`;
const NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';

export interface ShapeParser {
  /** Parses `text` as JSON exactly as `JSON.parse` does, and throws where it throws. */
  parse(text: string): unknown;
  /** How many texts a learned shape read; for tests and benchmarks. */
  readonly hits: number;
}

export function createShapeParser(): ShapeParser {
  const shapes = new LearnedPatterns<Builder>(MAX_SHAPES);
  return {
    parse(text) {
      const build = shapes.match(text);
      if (build) return build(shapes.groups!);
      const value: unknown = JSON.parse(text);
      const shape = learnableShape(value);
      if (shape) shapes.learn(`^${patternOf(shape)}$`, text, () => builderOf(shape, { next: 1 }));
      return value;
    },
    get hits() {
      return shapes.hits;
    },
  };
}

/** A string leaf's value, from the text its group matched (between the quotes). */
export function stringOf(raw: string): string {
  // Escapes are rare in these payloads, and the regex has already checked their grammar.
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/**
 * A number leaf's value, from text the regex matched as a JSON number. A plain integer of up to
 * 15 digits (progress counters, sequence numbers: nearly every one) is read digit by digit:
 * `Number()` of a string is a call into the engine's runtime, which also hashes the string. Any
 * other form goes to `Number()`, which reads JSON's number grammar as JSON.parse does.
 */
export function numberOf(raw: string): number {
  const negative = raw.charCodeAt(0) === 45; // '-'
  const start = negative ? 1 : 0;
  if (raw.length - start > 15) return Number(raw);
  let value = 0;
  for (let i = start; i < raw.length; i++) {
    const digit = raw.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(raw);
    value = value * 10 + digit;
  }
  // -0 as JSON.parse gives it.
  return negative ? -value : value;
}

/** The shape of `value` if it is one a regex can learn, else undefined. */
export function learnableShape(value: unknown): Shape | undefined {
  return shapeOf(value, 0, { nodes: 0 }, true);
}

function shapeOf(value: unknown, depth: number, budget: { nodes: number }, top: boolean): Shape | undefined {
  if (++budget.nodes > MAX_NODES) return undefined;
  switch (typeof value) {
    case 'string':
      return { kind: 'string' };
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'object': {
      if (value === null) return { kind: 'null' };
      if (Array.isArray(value) || depth >= MAX_DEPTH) return undefined;
      const keys = Object.keys(value);
      const values: Shape[] = [];
      for (const key of keys) {
        const field = (value as Record<string, unknown>)[key];
        const shape = top && CONSTANT_KEYS.has(key) && typeof field === 'string'
          ? { kind: 'constant' as const, value: field }
          : shapeOf(field, depth + 1, budget, false);
        if (!shape) return undefined;
        values.push(shape);
      }
      return { kind: 'object', keys, values };
    }
    default:
      return undefined;
  }
}

/**
 * Which parts of a value are read: a {@link KeepTree}, undefined for all of it, or `skip` for none
 * (its text is still matched, but captures nothing).
 */
type Kept = KeepTree | undefined | 'skip';

/** What is kept of the value under `key`, when `kept` is kept of the object. */
function keptUnder(kept: Kept, key: string): Kept {
  return kept === undefined || kept === 'skip' || kept.size === 0 ? kept : (kept.get(key) ?? 'skip');
}

/**
 * The regex source that matches exactly the compact JSON texts of `shape`, with one group per
 * kept string, number and boolean, in the order of the text.
 */
export function patternOf(shape: Shape, kept?: Kept): string {
  const group = (source: string) => (kept === 'skip' ? `(?:${source})` : `(${source})`);
  switch (shape.kind) {
    case 'string':
      return `"${group(STRING_BODY)}"`;
    case 'number':
      return group(NUMBER);
    case 'boolean':
      return group('true|false');
    case 'null':
      return 'null';
    case 'constant':
      return escapeRegExp(JSON.stringify(shape.value));
    case 'object':
      return `\\{${shape.keys.map((key, i) => `${escapeRegExp(JSON.stringify(key))}:${patternOf(shape.values[i]!, keptUnder(kept, key))}`).join(',')}\\}`;
  }
}

/** A kept string, number or boolean of a shape: where it is, in the order of the groups. */
export interface ShapeLeaf {
  path: string[];
  kind: 'string' | 'number' | 'boolean';
}

/** The leaves {@link patternOf} gives groups to, in group order. */
export function leavesOf(shape: Shape, kept?: Kept, path: string[] = []): ShapeLeaf[] {
  if (kept === 'skip') return [];
  if (shape.kind === 'object') return shape.keys.flatMap((key, i) => leavesOf(shape.values[i]!, keptUnder(kept, key), [...path, key]));
  return shape.kind === 'string' || shape.kind === 'number' || shape.kind === 'boolean' ? [{ path, kind: shape.kind }] : [];
}

/**
 * Compiles the function that rebuilds a value from a match of {@link patternOf}'s regex (given
 * the same `kept`), whose groups start at `captures.next`. Only the kept parts are rebuilt: a
 * reader of three fields need not pay for thirty.
 */
export function builderOf(shape: Shape, captures: { next: number }, kept?: KeepTree): Builder {
  switch (shape.kind) {
    case 'string': {
      const at = captures.next++;
      return (match) => stringOf(match[at]!);
    }
    case 'number': {
      const at = captures.next++;
      return (match) => numberOf(match[at]!);
    }
    case 'boolean': {
      const at = captures.next++;
      return (match) => match[at] === 'true';
    }
    case 'null':
      return () => null;
    case 'constant': {
      const value = shape.value;
      return () => value;
    }
    case 'object': {
      const keys: string[] = [];
      const fields: Builder[] = [];
      shape.keys.forEach((key, i) => {
        const under = keptUnder(kept, key);
        if (under === 'skip') return;
        keys.push(key);
        fields.push(builderOf(shape.values[i]!, captures, under));
      });
      // Copying a template puts every built object on one hidden class, and the stores below
      // overwrite its properties instead of adding them one at a time. The template's keys are
      // own data properties, as JSON.parse makes them: storing to `__proto__` sets a property,
      // never the prototype.
      const template: Record<string, unknown> = Object.fromEntries(keys.map((key) => [key, null]));
      return (match) => {
        const object = { ...template };
        for (let i = 0; i < keys.length; i++) object[keys[i]!] = fields[i]!(match);
        return object;
      };
    }
  }
}
