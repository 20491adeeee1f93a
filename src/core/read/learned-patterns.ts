/**
 * What both learned-regex readers keep (json-shapes.ts for payloads, block-template.ts for whole
 * SSE blocks): the patterns they compiled, and the ones they saw once or refused.
 *
 * A pattern is compiled on its second sighting, so a one-off text never pays for a compile. It is
 * refused for good when the text it was learned from does not match it (pretty-printed JSON,
 * unusual escapes): such a stream would otherwise compile a pattern for every other text. At most
 * `max` are kept, and they are tried most recently matched first: a stream repeats its last one.
 */

/** Sources seen once (or refused) that are remembered; forgotten in bulk past this many. */
const MAX_SIGHTINGS = 32;

interface Known<T> {
  source: string;
  pattern: RegExp;
  value: T;
}

export class LearnedPatterns<T> {
  private readonly known: Known<T>[] = [];
  private readonly sightings = new Set<string>();
  private readonly refused = new Set<string>();
  /** Texts a pattern matched; for tests and benchmarks. */
  hits = 0;
  /** The groups of the last match {@link match} found, and where it ended (for sticky ones). */
  groups: RegExpExecArray | undefined;
  end = 0;

  /** `flags` are the compiled patterns' (`y` to match at a given position). */
  constructor(
    private readonly max: number,
    private readonly flags = '',
  ) {}

  /** Sees `source`, learned from `text`, once more; `compile` makes what a match of it gives. */
  learn(source: string, text: string, compile: () => T): void {
    if (this.refused.has(source) || this.known.some((known) => known.source === source)) return;
    if (!this.sightings.has(source)) return remember(this.sightings, source);
    this.sightings.delete(source);
    const pattern = new RegExp(source, this.flags);
    if (pattern.exec(text)?.[0] !== text) return remember(this.refused, source);
    this.known.unshift({ source, pattern, value: compile() });
    if (this.known.length > this.max) this.known.pop();
  }

  /** The value of the first pattern that matches `text` (at `at`, for sticky ones); its groups go to {@link groups}. */
  match(text: string, at = 0): T | undefined {
    const { known } = this;
    for (let i = 0; i < known.length; i++) {
      const entry = known[i]!;
      entry.pattern.lastIndex = at;
      const groups = entry.pattern.exec(text);
      if (!groups) continue;
      if (i > 0) {
        known.splice(i, 1);
        known.unshift(entry);
      }
      this.hits++;
      this.groups = groups;
      this.end = entry.pattern.lastIndex;
      return entry.value;
    }
    return undefined;
  }
}

function remember(set: Set<string>, source: string): void {
  if (set.size >= MAX_SIGHTINGS) set.clear();
  set.add(source);
}
