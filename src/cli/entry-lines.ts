/** Past this many entries the line index stops: SARIF then points at line 1 for the rest. */
export const MAX_ENTRY_LINES = 1_000_000;

/** Finds the line each `log.entries` element starts on, from the HAR's bytes as they are read. */
export interface EntryLineScanner {
  push(chunk: Uint8Array): void;
  /** The 1-based line of each entry found so far. */
  readonly lines: number[];
}

const OTHER = 0;
const LOG = 1;
const ENTRIES = 2;
/** Keys longer than this are none of the two we look for. */
const KEY_CHARS = 8;

/**
 * One pass over the bytes that tracks strings and nesting (no second parse), so SARIF can point
 * a result at its entry's line while the streaming reader reads the same chunks. JSON's
 * structure is ASCII, so UTF-8 bytes of other characters never look like any of it.
 */
export function createEntryLineScanner(): EntryLineScanner {
  const lines: number[] = [];
  const steps: number[] = [];
  const arrays: boolean[] = [];
  let line = 1;
  let inString = false;
  let escaped = false;
  let isValue = false;
  let expectValue = false;
  let keyText = '';
  let key = '';
  // The last byte outside strings and whitespace: `[` or `,` before a container makes it an element.
  let last = 0;
  const open = (isArray: boolean) => {
    const depth = steps.length;
    if (depth === 3 && steps[1] === LOG && steps[2] === ENTRIES && lines.length < MAX_ENTRY_LINES) lines.push(line);
    const keyed = last === 58;
    const step = keyed && depth === 1 && key === 'log' ? LOG : keyed && depth === 2 && steps[1] === LOG && key === 'entries' ? ENTRIES : OTHER;
    steps.push(step);
    arrays.push(isArray);
    expectValue = false;
  };
  return {
    lines,
    push(chunk) {
      for (const b of chunk) {
        if (b === 10) line++;
        if (inString) {
          if (escaped) escaped = false;
          else if (b === 92) escaped = true;
          else if (b === 34) {
            inString = false;
            if (!isValue) key = keyText;
          } else if (!isValue && keyText.length <= KEY_CHARS) keyText += String.fromCharCode(b);
          continue;
        }
        if (b === 32 || b === 10 || b === 13 || b === 9) continue;
        if (b === 34) {
          inString = true;
          isValue = expectValue || arrays[arrays.length - 1] === true;
          keyText = '';
        } else if (b === 58) expectValue = true;
        else if (b === 123 || b === 91) open(b === 91);
        else if (b === 125 || b === 93) {
          steps.pop();
          arrays.pop();
        } else if (b === 44) expectValue = false;
        last = b;
      }
    },
  };
}

/** The entry lines of a whole text (for tests and callers that hold it). */
export function entryLines(text: string): number[] {
  const scanner = createEntryLineScanner();
  scanner.push(new TextEncoder().encode(text));
  return scanner.lines;
}
