/**
 * A validating JSON scanner that keeps only the members the analysis rules read.
 *
 * Why: `JSON.parse` builds every object and string of every event, and the rules read a dozen
 * fields (jsonrpc, id, method, progress, app_seq, stop reasons...). On long agent sessions that
 * allocation is most of the analysis cost. This scanner checks the whole text against the JSON
 * grammar exactly as `JSON.parse` does, but materialises only the members named in {@link ROOT};
 * everything else is skipped in place, with no allocation. Its output is a pruned copy of what
 * `JSON.parse` would return, so `classify` and `sequenceOf` run on it unchanged. A differential
 * fuzz test holds it to `JSON.parse` on validity and on every field the rules read.
 *
 * Batches (a top-level array) are rare, and user JSON pointers can name any member: for those
 * the caller uses `JSON.parse`.
 */

/** The text is not JSON (what `JSON.parse` would throw on). */
export const NOT_JSON: unique symbol = Symbol('not JSON');
/** Valid or not, this text needs a full `JSON.parse` (a batch). */
export const NEEDS_FULL_PARSE: unique symbol = Symbol('needs full parse');

/** Which members of an object to keep: `true` keeps the value as a leaf, a Spec recurses. */
interface Spec {
  readonly names: readonly string[];
  readonly subs: readonly (Spec | null)[];
}

function spec(members: Record<string, Spec | null>): Spec {
  return { names: Object.keys(members), subs: Object.values(members) };
}

// Mirrors what jsonrpc.ts, sequence.ts and ingest.ts read. A member missing here reads as absent,
// which the differential test would catch.
const STOP = { stop_reason: null, stopReason: null };
const DATA = spec(STOP);
const META = spec({ progressToken: null, app_seq: null, resume_token: null });
const PARAMS = spec({ progressToken: null, progress: null, app_seq: null, resume_token: null, _meta: META, data: DATA, ...STOP });
const RESULT = spec({ _meta: META, data: DATA, protocolVersion: null, serverInfo: null, ...STOP });
const ROOT = spec({ jsonrpc: null, id: null, method: null, app_seq: null, resume_token: null, params: PARAMS, result: RESULT, error: null });

/**
 * Skipped containers read as these: the rules only ask whether a member is a record or an
 * array, never what a skipped one holds. Frozen, since every event shares them.
 */
const SKIPPED_OBJECT: Readonly<Record<string, never>> = Object.freeze({});
const SKIPPED_ARRAY: readonly never[] = Object.freeze([]);

/** Thrown (once allocated) to unwind from deep inside the scan; never escapes this module. */
const INVALID = new Error('invalid JSON');

let text = '';
let at = 0;

/**
 * Scans one event's `data`. Returns the pruned value, {@link NOT_JSON} when `JSON.parse` would
 * throw, or {@link NEEDS_FULL_PARSE} for a top-level array.
 */
export function scanJson(source: string): unknown {
  text = source;
  at = 0;
  try {
    skipSpace();
    const first = text.charCodeAt(at);
    if (first === 0x5b /* [ */) {
      // Still validate, so a broken batch is reported the same way as a broken message.
      skipValue();
      return end() ? NEEDS_FULL_PARSE : NOT_JSON;
    }
    const value = readValue(ROOT);
    return end() ? value : NOT_JSON;
  } catch (error) {
    if (error === INVALID) return NOT_JSON;
    throw error;
  } finally {
    text = ''; // do not keep the last event's text alive
  }
}

function end(): boolean {
  skipSpace();
  return at === text.length;
}

function skipSpace(): void {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
    else return;
  }
}

/** Reads a value at `at`; objects are pruned to `members`, other containers are skipped. */
function readValue(members: Spec | null): unknown {
  const c = text.charCodeAt(at);
  if (c === 0x22 /* " */) return readString();
  if (c === 0x7b /* { */) {
    if (members) return readObject(members);
    skipValue();
    return SKIPPED_OBJECT;
  }
  if (c === 0x5b /* [ */) {
    skipValue();
    return SKIPPED_ARRAY;
  }
  const start = at;
  skipPrimitive();
  // Literals and numbers: Number() reads every JSON number exactly as JSON.parse does.
  const first = text.charCodeAt(start);
  if (first === 0x74) return true;
  if (first === 0x66) return false;
  if (first === 0x6e) return null;
  return Number(text.slice(start, at));
}

function readObject(members: Spec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  at++; // {
  skipSpace();
  if (text.charCodeAt(at) === 0x7d /* } */) {
    at++;
    return out;
  }
  for (;;) {
    if (text.charCodeAt(at) !== 0x22) throw INVALID;
    const keyStart = at + 1;
    const escaped = skipString();
    const slot = memberOf(members, keyStart, at - 1, escaped);
    skipSpace();
    if (text.charCodeAt(at) !== 0x3a /* : */) throw INVALID;
    at++;
    skipSpace();
    if (slot < 0) skipValue();
    // Assigning in text order makes the last duplicate win, as in JSON.parse.
    else out[members.names[slot]!] = readValue(members.subs[slot]!);
    skipSpace();
    const c = text.charCodeAt(at++);
    if (c === 0x7d) return out;
    if (c !== 0x2c /* , */) throw INVALID;
    skipSpace();
  }
}

/** Index of the key in `members`, or -1. Compares in place: no string is made for the key. */
function memberOf(members: Spec, start: number, end: number, escaped: boolean): number {
  const names = members.names;
  if (escaped) {
    const key = JSON.parse(text.slice(start - 1, end + 1)) as string;
    return names.indexOf(key);
  }
  const length = end - start;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name.length === length && text.startsWith(name, start)) return i;
  }
  return -1;
}

function readString(): string {
  const start = at + 1;
  const escaped = skipString();
  return escaped ? (JSON.parse(text.slice(start - 1, at)) as string) : text.slice(start, at - 1);
}

/** Skips a string starting at its opening quote; returns whether it held escapes. */
function skipString(): boolean {
  let escaped = false;
  const length = text.length;
  for (let i = at + 1; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      at = i + 1;
      return escaped;
    }
    if (c === 0x5c /* \ */) {
      escaped = true;
      const e = text.charCodeAt(++i);
      if (e === 0x75 /* u */) {
        for (let k = 1; k <= 4; k++) if (!isHex(text.charCodeAt(i + k))) throw INVALID;
        i += 4;
      } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
        throw INVALID;
      }
    } else if (c < 0x20) {
      throw INVALID; // JSON strings may not hold raw control characters
    }
  }
  throw INVALID;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Skips a number or a literal. */
function skipPrimitive(): void {
  const c = text.charCodeAt(at);
  if (c === 0x74) return literal('true');
  if (c === 0x66) return literal('false');
  if (c === 0x6e) return literal('null');
  if (c === 0x2d /* - */) at++;
  const lead = text.charCodeAt(at);
  if (lead === 0x30) at++;
  else if (lead >= 0x31 && lead <= 0x39) skipDigits();
  else throw INVALID;
  if (text.charCodeAt(at) === 0x2e /* . */) {
    at++;
    if (!isDigit(text.charCodeAt(at))) throw INVALID;
    skipDigits();
  }
  const e = text.charCodeAt(at);
  if (e === 0x65 || e === 0x45) {
    at++;
    const sign = text.charCodeAt(at);
    if (sign === 0x2b || sign === 0x2d) at++;
    if (!isDigit(text.charCodeAt(at))) throw INVALID;
    skipDigits();
  }
}

function literal(word: string): void {
  if (!text.startsWith(word, at)) throw INVALID;
  at += word.length;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function skipDigits(): void {
  while (isDigit(text.charCodeAt(at))) at++;
}

/** Open containers while skipping, innermost last: 1 object, 2 array. Grown as needed. */
let stack = new Uint8Array(64);

/**
 * Skips any value, validating it. Iterative, so nesting depth costs memory, not call stack:
 * JSON.parse accepts deep nesting too, and a hostile stream must not crash the scan.
 */
function skipValue(): void {
  let depth = 0;
  for (;;) {
    // At the start of a value.
    skipSpace();
    const c = text.charCodeAt(at);
    if (c === 0x7b || c === 0x5b) {
      if (depth === stack.length) {
        const grown = new Uint8Array(depth * 2);
        grown.set(stack);
        stack = grown;
      }
      const isObject = c === 0x7b;
      stack[depth++] = isObject ? 1 : 2;
      at++;
      skipSpace();
      const close = text.charCodeAt(at);
      if (close === (isObject ? 0x7d : 0x5d)) {
        at++;
        depth--;
      } else {
        if (isObject) skipKey();
        continue;
      }
    } else if (c === 0x22) {
      skipString();
    } else {
      skipPrimitive();
    }
    // After a value: close containers or move to the next member.
    for (;;) {
      if (depth === 0) return;
      skipSpace();
      const next = text.charCodeAt(at++);
      const isObject = stack[depth - 1] === 1;
      if (next === 0x2c) {
        if (isObject) {
          skipSpace();
          skipKey();
        }
        break;
      }
      if (next !== (isObject ? 0x7d : 0x5d)) throw INVALID;
      depth--;
    }
  }
}

/** Skips `"key" :` inside an object. */
function skipKey(): void {
  if (text.charCodeAt(at) !== 0x22) throw INVALID;
  skipString();
  skipSpace();
  if (text.charCodeAt(at) !== 0x3a) throw INVALID;
  at++;
}
