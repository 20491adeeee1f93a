/**
 * Finds the entries of a HAR in its bytes as they arrive, so a reader parses one entry at a time
 * and never holds the file as one string (a recording grows past what one string may hold).
 *
 * Two ways to find an entry's end meet here, and `JSON.parse` of each entry checks both:
 *
 * - The exact scan knows what JSON needs to find structure: strings, with their escapes (which
 *   may be cut between chunks), and brackets. It follows `log.entries`, and hands over the
 *   values of `log.creator` and `log.pages`, which the entries' reading depends on.
 * - The fast path, once the exact scan has found one boundary between entries, searches for the
 *   same bytes again: the comma, the whitespace and the next entry's first key (`,{"pageref"`,
 *   or `,\n    {\n      "startedDateTime"` when pretty-printed). Those bytes hold an unescaped
 *   quote right after a brace, so they never occur inside a string. They may occur deeper in
 *   an entry, and then the piece before them is not one JSON value: its parse fails, and the
 *   exact scan reads that entry instead. So a wrong guess costs time, never a wrong entry.
 *   The search is the engine's string search, which skips through the bodies (nearly all of
 *   a HAR's bytes) far faster than any scan that looks at each character.
 *
 * Bytes are decoded to text chunk by chunk (UTF-8 is cut only between characters), and each
 * entry's text is parsed alone, so the file is never one string.
 */
import { Utf8Chunks } from '../read/utf8-chunks';

/** What the scan hands over. */
export interface EntryScanSink {
  /** A member of `log` the entries depend on (`creator`, `pages`), as its JSON text. */
  logMember(name: 'creator' | 'pages', text: string): void;
  /** The `log.entries` array opened: every member of `log` before it has been handed over. */
  entriesStart(): void;
  /**
   * One element of `log.entries`, as its JSON text. Returns why, when that text is not one JSON
   * value: from the fast path, that was a wrong guess, and the exact scan reads it again.
   */
  entry(text: string): string | undefined;
}

/** How the scan ended: the shape it found, or where the text stops being the JSON it expects. */
export type EntryScanEnd = { ok: true; sawLog: boolean; entriesIsArray: boolean } | { ok: false; reason: string };

export interface EntryScan {
  /** Scans the next bytes; the sink is called before it returns. Ignored after a failure. */
  push(chunk: Uint8Array): void;
  /** The input is complete. */
  finish(): EntryScanEnd;
  /** Bytes pushed so far. */
  readonly bytes: number;
  /** Set once the text cannot be this JSON; the rest of the input need not be read. */
  readonly failure: string | undefined;
  /** Entries the exact scan found, and the fast path's guesses (for tests and benchmarks). */
  readonly found: { exact: number; guessed: number; wrong: number };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
/** Depth inside an element of `log.entries`: root object, `log`, the array. */
const ENTRY_DEPTH = 3;
/** Keys are only read in the root object and in `log`; longer ones are none of ours. */
const MAX_KEY_CHARS = 64;
/**
 * Bytes gathered before they are decoded and scanned. Small chunks (a browser's file stream
 * gives 64 KB) cost more to decode one by one, and far more to join as strings, than to copy
 * into one buffer and decode once.
 */
const BATCH_BYTES = 1024 * 1024;
/**
 * Text the fast path may gather for one entry without finding the boundary it learned, beyond
 * twice the longest entry so far, before the exact scan takes over (the next entries may start
 * with another key, or the array has ended).
 */
const MIN_FAST_WINDOW = 16 * 1024 * 1024;

/** A token the exact scan stops at, for its caller to act on. */
type Stop = { at: number; kind: 'entries-open' | 'entry-end' | 'entries-close' };

/**
 * Makes a scan. State lives in this closure; the caller feeds chunks of any size, and the same
 * pieces come out however the bytes were cut.
 */
export function createEntryScan(sink: EntryScanSink): EntryScan {
  const utf8 = new Utf8Chunks();
  // A string's content up to its closing quote, or to a backslash the chunk cuts from what it escapes.
  const stringBody = /[^"\\]*(?:\\[\s\S][^"\\]*)*/y;
  let bytes = 0;
  let failure: string | undefined;
  let started = false;
  let finished = false;

  // The exact scan's state.
  /** The open containers' closing characters, innermost last. */
  const closers: number[] = [];
  let inString = false;
  let escapePending = false;
  let rootIsObject = false;
  let rootClosed = false;
  let expectKey = false;
  let key: string | undefined;
  /** The key being read (in the root object or `log` only). */
  let keyText: string | undefined;
  let inLog = false;
  let inEntries = false;
  let sawLog = false;
  let entriesIsArray = false;
  /** A member of `log` being captured, and its text from earlier chunks. */
  let member: { name: 'creator' | 'pages'; text: string; from: number } | undefined;

  // The entries' state.
  /** Text of the current entry from earlier batches (or, on the exact scan, earlier chunks). */
  let entryText = '';
  /** The fast path's last characters of `entryText`, one fewer than the boundary has. */
  let seam = '';
  /** Whether the exact scan reads the current entry (no boundary learned, or a guess failed). */
  let exactEntry = true;
  /** The bytes between two entries, learned from the first boundary the exact scan found. */
  let boundary: string | undefined;
  let longestEntry = 0;
  /** Entries handed over, to tell `[]` from a trailing comma. */
  let entries = 0;
  const counts = { exact: 0, guessed: 0, wrong: 0 };
  /** Bytes waiting to reach {@link BATCH_BYTES} before they are decoded. */
  let batch: Uint8Array | undefined;
  let batchBytes = 0;

  const fail = (reason: string): void => {
    failure ??= `not valid JSON (${reason}, near byte ${bytes})`;
  };
  const depth = () => closers.length;

  /** Scans `t` from `i` until a stop, or to its end (then -1 in `at`). */
  const scanExact = (t: string, i: number): Stop | undefined => {
    const n = t.length;
    while (i < n) {
      if (inString) {
        if (escapePending) {
          escapePending = false;
          i++;
        }
        stringBody.lastIndex = i;
        stringBody.exec(t);
        const end = stringBody.lastIndex;
        if (keyText !== undefined && keyText.length <= MAX_KEY_CHARS) keyText += t.slice(i, Math.min(end, i + MAX_KEY_CHARS + 1));
        if (end >= n) return undefined;
        if (t.charCodeAt(end) === BACKSLASH) {
          escapePending = true;
          return undefined;
        }
        inString = false;
        i = end + 1;
        if (keyText !== undefined) {
          key = keyText.length > MAX_KEY_CHARS ? undefined : keyOf(keyText);
          keyText = undefined;
        }
        if (depth() === 0) rootClosed = true;
        continue;
      }
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (rootClosed) {
        fail('text after the end of the file’s JSON value');
        return undefined;
      }
      if (c === QUOTE) {
        inString = true;
        if (expectKey && ((depth() === 1 && rootIsObject) || (depth() === 2 && inLog))) {
          keyText = '';
          expectKey = false;
        }
        i++;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const d = depth();
        closers.push(c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY);
        if (d === 0) {
          // Any other value is read as JSON too, and then has no log.
          rootIsObject = c === OPEN_OBJECT;
          expectKey = rootIsObject;
        } else if (d === 1 && rootIsObject && key === 'log' && c === OPEN_OBJECT && !inLog) {
          inLog = sawLog = expectKey = true;
        } else if (d === 2 && inLog && key === 'entries' && c === OPEN_ARRAY) {
          inEntries = entriesIsArray = true;
          return { at: i, kind: 'entries-open' };
        } else if (d === 2 && inLog && (key === 'creator' || key === 'pages') && !member) {
          member = { name: key, text: '', from: i };
        }
        i++;
        continue;
      }
      if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (closers.pop() !== c) {
          fail(closers.length === 0 ? 'a closing bracket with nothing open' : 'a closing bracket that does not match');
          return undefined;
        }
        const d = depth();
        if (d === ENTRY_DEPTH - 1 && inEntries) {
          inEntries = false;
          return { at: i, kind: 'entries-close' };
        }
        if (d === 2 && member) {
          sink.logMember(member.name, member.text + t.slice(member.from, i + 1));
          member = undefined;
        }
        if (d === 1) inLog = false;
        if (d === 0) rootClosed = true;
        i++;
        continue;
      }
      if (c === COMMA) {
        const d = depth();
        if (d === ENTRY_DEPTH && inEntries) return { at: i, kind: 'entry-end' };
        if ((d === 1 && rootIsObject) || (d === 2 && inLog)) {
          expectKey = true;
          key = undefined;
        }
        i++;
        continue;
      }
      if (depth() === 0) {
        // A bare value (a number, `null`) at the top: no log, but still one value only.
        while (i < n && !isSpace(t.charCodeAt(i))) i++;
        rootClosed = true;
        continue;
      }
      i++;
    }
    return undefined;
  };

  /** Hands over the entry `text`, exactly found; when it is not JSON, the file is not. */
  const emitExact = (text: string): void => {
    if (isBlank(text)) return fail('an empty element in log.entries');
    longestEntry = Math.max(longestEntry, text.length);
    entries++;
    counts.exact++;
    const error = sink.entry(text);
    if (error !== undefined) fail(error);
  };

  /** Learns the boundary from `t`, which starts at the comma that ended an entry. */
  const learnBoundary = (t: string): void => {
    let k = 1;
    while (k < t.length && isSpace(t.charCodeAt(k))) k++;
    if (t.charCodeAt(k) !== OPEN_OBJECT) return;
    k++;
    while (k < t.length && isSpace(t.charCodeAt(k))) k++;
    if (t.charCodeAt(k) !== QUOTE) return;
    const close = t.indexOf('"', k + 1);
    if (close === -1 || close - k > MAX_KEY_CHARS || t.slice(k, close).includes('\\')) return;
    boundary = t.slice(0, close + 1);
  };

  /** Scans text that follows everything scanned before it. */
  const scanText = (text: string): void => {
    let t = text;
    while (failure === undefined) {
      if (!inEntries) {
        const stop = scanExact(t, 0);
        if (member && !stop) {
          member.text += t.slice(member.from);
          member.from = 0;
        }
        if (!stop) return;
        // The entries array opened: the first entry starts after its bracket.
        sink.entriesStart();
        t = t.slice(stop.at + 1);
        entryText = seam = '';
        exactEntry = true;
        continue;
      }
      if (exactEntry) {
        const stop = scanExact(t, 0);
        if (!stop) {
          if (failure === undefined) entryText += t;
          return;
        }
        const text = entryText + t.slice(0, stop.at);
        entryText = seam = '';
        if (stop.kind === 'entry-end') {
          emitExact(text);
          if (boundary === undefined) learnBoundary(t.slice(stop.at));
          exactEntry = boundary === undefined;
        } else if (!isBlank(text) || entries > 0) emitExact(text);
        t = t.slice(stop.at + 1);
        continue;
      }
      // The fast path: `entryText` holds the entry so far, `seam` its last characters, where
      // the boundary may start. Neither is searched or sliced whole: a long entry is many texts
      // joined, and each slice of the join would copy all of it.
      const found = findBoundary(seam, t, boundary!);
      if (found === undefined) {
        entryText += t;
        seam = tailOf(seam, t, boundary!.length - 1);
        if (entryText.length > Math.max(MIN_FAST_WINDOW, 2 * longestEntry)) {
          t = entryText;
          entryText = seam = '';
          exactEntry = true;
          continue;
        }
        return;
      }
      // `found` counts from the seam's start: before 0, the boundary began in an earlier text.
      const cut = found - seam.length;
      const text = cut >= 0 ? entryText + t.slice(0, cut) : entryText.slice(0, entryText.length + cut);
      const rest = cut >= 0 ? t.slice(cut + 1) : entryText.slice(entryText.length + cut + 1) + t;
      counts.guessed++;
      entryText = seam = '';
      if (!isBlank(text) && sink.entry(text) === undefined) {
        entries++;
        longestEntry = Math.max(longestEntry, text.length);
        t = rest;
        continue;
      }
      // Not one entry: the boundary's bytes occurred inside it. Read it exactly, from its start.
      counts.wrong++;
      exactEntry = true;
      t = `${text},${rest}`;
    }
  };

  const scanBytes = (chunk: Uint8Array): void => {
    const text = utf8.decode(chunk);
    if (text !== '') scanText(text);
  };
  const flushBatch = (): void => {
    if (batchBytes === 0) return;
    // The decoder's text is a copy, so the buffer is free again once decoded (a fresh one per
    // batch costs the system a zeroed page for every 4 KB read).
    const bytes = batch!.subarray(0, batchBytes);
    batchBytes = 0;
    scanBytes(bytes);
  };

  return {
    push(chunk) {
      if (failure !== undefined || finished) return;
      bytes += chunk.length;
      if (chunk.length === 0) return;
      started = true;
      // The decoder strips a byte order mark at the start, as readHar does.
      if (batchBytes === 0 && chunk.length >= BATCH_BYTES) return scanBytes(chunk);
      let from = 0;
      while (from < chunk.length && failure === undefined) {
        batch ??= new Uint8Array(BATCH_BYTES);
        const take = Math.min(chunk.length - from, BATCH_BYTES - batchBytes);
        batch.set(chunk.subarray(from, from + take), batchBytes);
        batchBytes += take;
        from += take;
        if (batchBytes === BATCH_BYTES) flushBatch();
      }
    },
    finish() {
      if (!finished) {
        finished = true;
        flushBatch();
        const rest = utf8.end();
        if (rest !== '' && failure === undefined) scanText(rest);
        // What the fast path still holds is the last entry and the end of the array: read exactly.
        if (failure === undefined && inEntries && !exactEntry) {
          const t = entryText;
          entryText = '';
          exactEntry = true;
          scanText(t);
        }
      }
      if (failure !== undefined) return { ok: false, reason: failure };
      if (!started && !rootClosed) return { ok: false, reason: 'not valid JSON (the file is empty)' };
      if (depth() > 0 || inString) return { ok: false, reason: `not valid JSON (the file ends inside ${inString ? 'a string' : 'an object or array'}, at byte ${bytes})` };
      if (!rootClosed) return { ok: false, reason: 'not valid JSON (the file holds no value)' };
      return { ok: true, sawLog, entriesIsArray };
    },
    get bytes() {
      return bytes;
    },
    get failure() {
      return failure;
    },
    found: counts,
  };
}

/**
 * Where `boundary` starts in `seam + t` (the end of the entry so far, then new text), or
 * undefined; `t` is searched as it is, not joined to anything.
 */
function findBoundary(seam: string, t: string, boundary: string): number | undefined {
  const inSeam = seam === '' ? -1 : (seam + t.slice(0, boundary.length - 1)).indexOf(boundary);
  if (inSeam !== -1) return inSeam;
  const inText = t.indexOf(boundary);
  return inText === -1 ? undefined : seam.length + inText;
}

/** The last `n` characters of `before + t`, copied out of neither. */
function tailOf(before: string, t: string, n: number): string {
  return t.length >= n ? t.slice(t.length - n) : (before + t).slice(-n);
}

/** A key's text: escapes in it (`"\u006cog"`) read as JSON reads them. */
function keyOf(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isBlank(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (!isSpace(text.charCodeAt(k))) return false;
  return true;
}
