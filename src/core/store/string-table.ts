/**
 * Numbers the strings that repeat on every event of a long session (methods, progress tokens,
 * sequence keys), so an event stores a small integer instead of a string. One per analysis.
 */
export interface StringTable {
  /** The number of `text`; equal strings get the same number while the lookup has room. */
  indexOf(text: string): number;
  at(index: number): string;
}

/** Strings longer than this are not worth a lookup entry: they rarely repeat. */
const MAX_LOOKUP_CHARS = 256;
/**
 * A hostile stream can send a new method on every event; past this many distinct strings new
 * ones are still numbered (the event needs them) but no longer looked up, so the table costs
 * what storing the strings would, not a second index over them.
 */
const MAX_LOOKUP = 10_000;

export function createStringTable(): StringTable {
  const strings: string[] = [];
  const lookup = new Map<string, number>();
  return {
    indexOf(text) {
      const known = lookup.get(text);
      if (known !== undefined) return known;
      const index = strings.push(text) - 1;
      if (lookup.size < MAX_LOOKUP && text.length <= MAX_LOOKUP_CHARS) lookup.set(text, index);
      return index;
    },
    at: (index) => strings[index]!,
  };
}
