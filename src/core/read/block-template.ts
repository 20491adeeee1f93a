import { escapeRegExp } from './escape-regexp';
import { LearnedPatterns } from './learned-patterns';
import { learnableShape, leavesOf, patternOf, type KeepTree, type ShapeLeaf } from './json-shapes';

/**
 * Whole SSE blocks read by one regular expression. An MCP server writes every event of a long
 * tool call the same way (the official SDK: `event: message`, `id: …`, `data: {…}`), and only
 * the id and the payload's numbers and strings change. For a block layout seen twice we compile
 * a sticky regex that matches exactly such blocks: the fields in their order, one `data:` line
 * whose JSON has the learned shape (see json-shapes.ts), and the blank line. One match frames the
 * block and validates its JSON at once, where the general path pays eventsource-parser, a
 * `data` string, JSON.parse and a walk of the parsed value.
 *
 * A match means eventsource-parser would have given the same event: the regex admits only `\n`
 * line ends, an id without NUL (which the parser ignores) and a payload without U+FFFD (which
 * earns a warning), and a layout is compiled only after its text matched its own regex.
 */

/** One block a template matched. Valid until the next match: the object is reused. */
export interface BlockMatch<Plan> {
  /** Where the block ends in the text: the position after its blank line. */
  end: number;
  /** The `id:` value; undefined when the layout has none or the value is empty. */
  id: string | undefined;
  /** Where the id's text starts in the matched text; -1 without an id. */
  idStart: number;
  event: string | undefined;
  /** Where the `data:` payload's JSON text starts; it ends at `end - 2`. */
  dataStart: number;
  /** The regex match: the payload's kept leaves are its groups from `plan`'s first group on. */
  groups: RegExpExecArray;
  /** What the template's owner compiled for it (see {@link createBlockTemplates}). */
  plan: Plan;
}

/** What a template's owner learns of it once, when it is compiled. */
export interface TemplateSpec {
  /** The payload the layout was learned from. Its shape is every match's shape. */
  sample: unknown;
  /** The payload's kept strings, numbers and booleans, and the group of the first one. */
  leaves: ShapeLeaf[];
  firstGroup: number;
}

export interface BlockTemplates<Plan> {
  /**
   * Learns from one whole block (`raw`, ending in its blank line) and its parsed payload; a layout
   * is compiled on its second sighting, so a one-off block never pays for a compile.
   */
  learn(raw: string, value: unknown): void;
  /** Matches one learned block starting exactly at `at` of `text`, or gives undefined. */
  match(text: string, at: number): BlockMatch<Plan> | undefined;
  /** Blocks a template matched; for tests and benchmarks. */
  readonly hits: number;
}

/** A compiled layout: where its parts are, and what its owner compiled for it. */
interface Template<Plan> {
  /** Where the id's value starts, from the block's start: only literal lines come before it. */
  idOffset: number;
  /** Whether the layout has an `id:` line; its value is then group 1. */
  hasId: boolean;
  /** From the end of the id's value (or the block's start, without one) to the payload. */
  dataOffset: number;
  event: string | undefined;
  plan: Plan;
}

/** Templates tried at each block: a stream repeats one or two layouts (progress, a log line). */
const MAX_TEMPLATES = 4;
/** A field line as the SDK writes it: a known name, a colon and one space. */
const FIELD = /^(event|id|data): (.*)$/;

/**
 * Templates for payloads of which the analysis reads the `keep` parts. `compile` is called once
 * per template, with what the owner needs to read its matches.
 */
export function createBlockTemplates<Plan>(keep: KeepTree, compile: (spec: TemplateSpec) => Plan): BlockTemplates<Plan> {
  // Sticky: a template matches a block starting exactly where the framer is.
  const layouts = new LearnedPatterns<Template<Plan>>(MAX_TEMPLATES, 'y');
  // One result, reused: a long stream matches millions of blocks.
  let found: BlockMatch<Plan> | undefined;

  return {
    learn(raw, value) {
      const layout = layoutOf(raw, value, keep);
      if (!layout) return;
      const { shape, hasId, source, ...where } = layout;
      layouts.learn(source, raw, () => {
        const firstGroup = hasId ? 2 : 1;
        const plan = compile({ sample: value, leaves: leavesOf(shape, keep), firstGroup });
        return { ...where, hasId, plan };
      });
    },
    match(text, at) {
      const template = layouts.match(text, at);
      if (!template) return undefined;
      const groups = layouts.groups!;
      const id = template.hasId ? groups[1]! : undefined;
      found ??= { end: 0, id: undefined, idStart: -1, event: undefined, dataStart: 0, groups, plan: template.plan };
      found.end = layouts.end;
      // An empty id only clears the client's cursor; the framer reports no id for it either.
      found.id = id || undefined;
      found.idStart = id ? at + template.idOffset : -1;
      found.event = template.event;
      found.dataStart = (id === undefined ? at : at + template.idOffset + id.length) + template.dataOffset;
      found.groups = groups;
      found.plan = template.plan;
      return found;
    },
    get hits() {
      return layouts.hits;
    },
  };
}

/** A block's layout as regex source, and where its parts are; undefined when it is not learnable. */
function layoutOf(raw: string, value: unknown, keep: KeepTree) {
  if (!raw.endsWith('\n\n') || raw.includes('\r')) return undefined;
  const shape = learnableShape(value);
  if (!shape) return undefined;
  let source = '';
  let hasId = false;
  let idOffset = 0;
  let hasData = false;
  let event: string | undefined;
  // Characters since the id's value ended (or the block started): the payload's offset.
  let sinceId = 0;
  const seen = new Set<string>();
  for (const line of raw.slice(0, -2).split('\n')) {
    const [, name, text] = FIELD.exec(line) ?? [];
    // The payload's groups come last, so `data:` must be the last line (as the SDK writes it).
    if (name === undefined || text === undefined || seen.has(name) || hasData) return undefined;
    seen.add(name);
    if (name === 'event') {
      // The parser reports an empty type as none; `endpoint` is the legacy handshake, not a message.
      if (text === '' || text === 'endpoint') return undefined;
      event = text;
      source += `event: ${escapeRegExp(text)}\\n`;
      sinceId += line.length + 1;
    } else if (name === 'id') {
      hasId = true;
      // The lines before this one are literal (`event:`), so the id starts at a fixed offset.
      idOffset = sinceId + 'id: '.length;
      sinceId = 1;
      source += 'id: ([^\\n\\r\\0]*)\\n';
    } else {
      hasData = true;
      sinceId += 'data: '.length;
      source += `data: ${patternOf(shape, keep)}\\n`;
    }
  }
  if (!hasData) return undefined;
  return { source: `${source}\\n`, shape, hasId, idOffset, dataOffset: sinceId, event };
}
