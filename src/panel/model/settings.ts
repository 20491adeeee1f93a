import { isJsonPointer } from '../../core/index';

/** What the user can set; kept in extension storage (or the shell's) through the adapter. */
export interface Settings {
  /** Extra app-sequence locations (RFC 6901), used where a message has no app_seq or progress. */
  appSeqPointers: string[];
  /** Exchanges the panel keeps in memory; past it new ones are dropped and counted. */
  maxExchanges: number;
  /** Analysed events the panel keeps in memory; past it the oldest are evicted and counted. */
  maxEvents: number;
  /** In exports: blank Authorization, Cookie and Set-Cookie, and replace session ids with pseudonyms. */
  redact: boolean;
  /** "Capture workers and early requests": the optional full-fidelity capture (off by default). */
  fullFidelity: boolean;
}

export const DEFAULT_SETTINGS: Settings = { appSeqPointers: [], maxExchanges: 5_000, maxEvents: 100_000, redact: true, fullFidelity: false };
export const MIN_EXCHANGES = 100;
export const MAX_EXCHANGES_SETTING = 100_000;
export const MIN_EVENTS = 1_000;
export const MAX_EVENTS_SETTING = 1_000_000;
/** Pointers kept at most (each one is tried on every message without app_seq or progress). */
export const MAX_POINTERS = 16;

/** Reads stored settings, which may be missing, old or tampered with: anything odd falls back. */
export function parseSettings(value: unknown): Settings {
  const stored = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const pointers = Array.isArray(stored.appSeqPointers)
    ? stored.appSeqPointers.filter((p): p is string => typeof p === 'string' && p !== '' && isJsonPointer(p)).slice(0, MAX_POINTERS)
    : DEFAULT_SETTINGS.appSeqPointers;
  const cap = stored.maxExchanges;
  const events = stored.maxEvents;
  return {
    appSeqPointers: pointers,
    maxExchanges: typeof cap === 'number' && Number.isInteger(cap) ? clampCap(cap) : DEFAULT_SETTINGS.maxExchanges,
    maxEvents: typeof events === 'number' && Number.isInteger(events) ? clampEvents(events) : DEFAULT_SETTINGS.maxEvents,
    redact: typeof stored.redact === 'boolean' ? stored.redact : DEFAULT_SETTINGS.redact,
    fullFidelity: stored.fullFidelity === true,
  };
}

export const clampCap = (n: number): number => Math.min(MAX_EXCHANGES_SETTING, Math.max(MIN_EXCHANGES, Math.round(n)));
export const clampEvents = (n: number): number => Math.min(MAX_EVENTS_SETTING, Math.max(MIN_EVENTS, Math.round(n)));

/** Parses the pointer text box (one pointer per line); says which lines are not pointers. */
export function parsePointers(text: string): { pointers: string[]; invalid: string[] } {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const invalid = lines.filter((l) => !isJsonPointer(l));
  const pointers = lines.filter((l) => isJsonPointer(l));
  if (pointers.length > MAX_POINTERS) invalid.push(`more than ${MAX_POINTERS} pointers`);
  return { pointers: pointers.slice(0, MAX_POINTERS), invalid };
}
