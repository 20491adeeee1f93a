/**
 * Stream content is untrusted and is only ever rendered as text. Text alone can still break a
 * layout: a U+202E override flips everything after it, C0 controls and zero-width characters hide
 * what an id really is. These helpers make such characters visible as `⟨U+XXXX⟩` instead.
 */

// C0/C1 controls, bidi marks, embeddings, overrides and isolates, zero-width and line separators.
const HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const HIDDEN_OR_BREAK = /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

const codePoint = (c: string): string => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;

/** Multi-line text with hidden characters shown; line breaks and tabs are kept. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, codePoint);
}

/** One-line text (ids, labels): line breaks and tabs are shown too. */
export function visibleLine(text: string): string {
  return text.replace(HIDDEN_OR_BREAK, (c) => (c === '\n' ? '↵' : c === '\t' ? '⇥' : c === '\r' ? '␍' : codePoint(c)));
}

/** At most `max` characters of `text`; the rest is counted, never rendered. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${formatChars(text.length - max)} more)`;
}

/** The end of a long opaque id, where SDK ids differ (`<stream>_<ms>_<rand>`). */
export function shortId(id: string, max = 14): string {
  const shown = visibleLine(id);
  return shown.length <= max ? shown : `…${shown.slice(-max)}`;
}

/** A long opaque id with its middle left out (`1c28c03c-a…5938_fwqca0gk`): SDK ids differ at both ends. */
export function middleId(id: string, max = 21): string {
  // Only the ends are shown: a hostile megabyte-long id is not made visible whole.
  const shown = visibleLine(id.length > 4 * max ? `${id.slice(0, 2 * max)}${id.slice(-2 * max)}` : id);
  if (shown.length <= max) return shown;
  const head = Math.ceil((max - 1) / 2);
  return `${shown.slice(0, head)}…${shown.slice(shown.length - (max - 1 - head))}`;
}

export function formatChars(n: number): string {
  if (n < 1_000) return `${n} chars`;
  if (n < 1_000_000) return `${(n / 1_000).toFixed(1)}k chars`;
  return `${(n / 1_000_000).toFixed(1)}M chars`;
}
