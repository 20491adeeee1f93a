import { escapeRegExp } from './escape-regexp';
import { builderOf, learnableShape, patternOf, type Builder, type KeepTree } from './json-shapes';

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

/** One block a template matched. */
export interface BlockMatch {
  /** Where the block ends in the text: the position after its blank line. */
  end: number;
  /** The `id:` value; undefined when the layout has none or the value is empty. */
  id: string | undefined;
  event: string | undefined;
  /** Where the id's text starts in the matched text; -1 without an id. */
  idStart: number;
  /** The `data:` payload's JSON text, and where it starts in the matched text. */
  data: string;
  dataStart: number;
  /** The payload, rebuilt with only the parts the analysis reads (the `keep` tree). */
  value: unknown;
}

export interface BlockTemplates {
  /**
   * Learns from one whole block (`raw`, ending in its blank line) and its parsed payload; a layout
   * is compiled on its second sighting, so a one-off block never pays for a compile.
   */
  learn(raw: string, value: unknown): void;
  /** Matches one learned block starting exactly at `at` of `text`, or gives undefined. */
  match(text: string, at: number): BlockMatch | undefined;
  /** Blocks a template matched; for tests and benchmarks. */
  readonly hits: number;
}

interface Template {
  /** The regex's source as we wrote it (`RegExp.source` escapes it further). */
  source: string;
  pattern: RegExp;
  /** Group of the id, or 0 for none. */
  idGroup: number;
  /** Where the id's value starts, from the block's start: only literal lines come before it. */
  idOffset: number;
  dataGroup: number;
  event: string | undefined;
  build: Builder;
}

/** Templates tried at each block: a stream repeats one or two layouts (progress, a log line). */
const MAX_TEMPLATES = 4;
/** Layouts seen once (or refused) that are remembered; forgotten in bulk past this many. */
const MAX_SIGHTINGS = 32;
/** A field line as the SDK writes it: a known name, a colon and one space. */
const FIELD = /^(event|id|data): (.*)$/;

export function createBlockTemplates(keep: KeepTree): BlockTemplates {
  // Most recently matched first: a stream usually repeats its last layout.
  const known: Template[] = [];
  const sightings = new Set<string>();
  // Layouts whose own text did not match (pretty-printed JSON, unusual escapes): never again.
  const refused = new Set<string>();
  let hits = 0;

  const remember = (set: Set<string>, source: string): void => {
    if (set.size >= MAX_SIGHTINGS) set.clear();
    set.add(source);
  };

  return {
    learn(raw, value) {
      const layout = layoutOf(raw, value, keep);

      if (!layout || refused.has(layout.source) || known.some((t) => t.source === layout.source)) return;
      if (!sightings.has(layout.source)) return remember(sightings, layout.source);
      sightings.delete(layout.source);
      const template = layout.compile();
      template.pattern.lastIndex = 0;

      if (template.pattern.exec(raw)?.[0] !== raw) return remember(refused, layout.source);
      known.unshift(template);
      if (known.length > MAX_TEMPLATES) known.pop();
    },
    match(text, at) {
      for (let i = 0; i < known.length; i++) {
        const template = known[i]!;
        const { pattern } = template;
        pattern.lastIndex = at;
        const match = pattern.exec(text);
        if (!match) continue;
        if (i > 0) {
          known.splice(i, 1);
          known.unshift(template);
        }
        hits++;
        // An empty id only clears the client's cursor; the framer reports no id for it either.
        const id = template.idGroup === 0 ? undefined : match[template.idGroup] || undefined;
        const data = match[template.dataGroup]!;
        const end = pattern.lastIndex;
        return {
          end,
          id,
          idStart: id === undefined ? -1 : at + template.idOffset,
          event: template.event,
          data,
          // The data line is the last: its payload ends just before "\n\n".
          dataStart: end - 2 - data.length,
          value: template.build(match),
        };
      }
      return undefined;
    },
    get hits() {
      return hits;
    },
  };
}

/** A block's layout as regex source, and how to compile it; undefined when it is not learnable. */
function layoutOf(raw: string, value: unknown, keep: KeepTree): { source: string; compile: () => Template } | undefined {
  if (!raw.endsWith('\n\n') || raw.includes('\r')) return undefined;
  const shape = learnableShape(value);
  if (!shape) return undefined;
  let source = '';
  let group = 1;
  let idGroup = 0;
  let idOffset = 0;
  let dataGroup = 0;
  let event: string | undefined;
  const seen = new Set<string>();
  let lineStart = 0;
  for (const line of raw.slice(0, -2).split('\n')) {
    const [, name, text] = FIELD.exec(line) ?? [];
    // The payload's groups come last, so `data:` must be the last line (as the SDK writes it).
    if (name === undefined || text === undefined || seen.has(name) || dataGroup !== 0) return undefined;
    seen.add(name);
    if (name === 'event') {
      // The parser reports an empty type as none; `endpoint` is the legacy handshake, not a message.
      if (text === '' || text === 'endpoint') return undefined;
      event = text;
      source += `event: ${escapeRegExp(text)}\\n`;
    } else if (name === 'id') {
      idGroup = group++;
      // The lines before this one are literal (`event:`), so the id starts at a fixed offset.
      idOffset = lineStart + 'id: '.length;
      source += 'id: ([^\\n\\r\\0]*)\\n';
    } else {
      dataGroup = group++;
      source += `data: (${patternOf(shape)})\\n`;
    }
    lineStart += line.length + 1;
  }
  if (dataGroup === 0) return undefined;
  source += '\\n';
  const firstShapeGroup = dataGroup + 1;
  return {
    source,
    compile: () => ({
      source,
      pattern: new RegExp(source, 'y'),
      idGroup,
      idOffset,
      dataGroup,
      event,
      build: builderOf(shape, { next: firstShapeGroup }, keep),
    }),
  };
}
