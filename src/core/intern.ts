/** Returns one shared copy of each equal string it is given. */
export type Interner = (text: string) => string;

/** Strings longer than this are not worth a table entry: they rarely repeat. */
const MAX_INTERNED_CHARS = 256;
/** A hostile stream can send a new method per event; past this the table stops growing. */
const MAX_INTERNED = 10_000;

/**
 * A bounded string table. Methods, progress tokens and sequence keys repeat on every event of a
 * long session; keeping one copy each saves a string per event, and the table's cap keeps a
 * stream of unique values from turning it into a second copy of the capture.
 */
export function createInterner(): Interner {
  const table = new Map<string, string>();
  return (text) => {
    if (text.length > MAX_INTERNED_CHARS) return text;
    const known = table.get(text);
    if (known !== undefined) return known;
    if (table.size < MAX_INTERNED) table.set(text, text);
    return text;
  };
}
