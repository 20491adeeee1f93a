/** Past this many entries the line index stops: SARIF then points at line 1 for the rest. */
export const MAX_ENTRY_LINES = 1_000_000;

/**
 * The 1-based line on which each element of `log.entries` starts in a HAR's JSON text, found
 * by one pass that tracks strings and nesting (no second parse), so SARIF can point a result at
 * its entry's line. Text that is not shaped like HAR gives what it found so far.
 */
export function entryLines(text: string): number[] {
  const lines: number[] = [];
  const path: (string | number)[] = [];
  let line = 1;
  let key: string | undefined;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 34) {
      // A string: find its end, counting escapes; newlines cannot occur inside JSON strings.
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      if (!expectValue) key = text.slice(i + 1, j);
      i = j;
    } else if (c === 58) expectValue = true; // ':'
    else if (c === 123 || c === 91) {
      // '{' or '[': an entry starts when its array is log.entries.
      if (path.length === 3 && path[1] === 'log' && path[2] === 'entries') {
        if (lines.length >= MAX_ENTRY_LINES) return lines;
        lines.push(line);
      }
      path.push(inArray(text, i) ? -1 : (key ?? ''));
      expectValue = false;
      key = undefined;
    } else if (c === 125 || c === 93) path.pop();
    else if (c === 44) expectValue = false; // ','
  }
  return lines;
}

/** The container opened at `at` is an array element (after `[` or `,`), not a keyed value (after `:`). */
function inArray(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text[i]!;
    if (c === ':') return false;
    if (c === '[' || c === ',') return true;
    if (c.trim() !== '') return false;
  }
  return false;
}
