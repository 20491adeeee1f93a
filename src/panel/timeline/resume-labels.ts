import { BAND_ROW_PX } from './layout';
import type { ResumeMark } from './marks';

/** The words on a resume's label, and a shorter form for when they do not fit. */
export interface ResumeText {
  full: string;
  short: string;
  /** Everything, for the tooltip and screen readers. */
  title: string;
}

/** `5 → expected 6 · got 11`: the boundary's arithmetic, as far as it is known. */
export function arithmetic(r: Pick<ResumeMark, 'lastSeen' | 'expected' | 'got'>): string {
  if (r.lastSeen === undefined && r.got === undefined) return '';
  const seen = r.lastSeen === undefined ? '?' : String(r.lastSeen);
  if (r.expected !== undefined) return `${seen} → expected ${r.expected} · got ${r.got ?? '?'}`;
  return `${seen} → ${r.got ?? '?'}`;
}

export function resumeText(r: ResumeMark, lastEventId: string): ResumeText {
  const status = r.status === 0 ? 'no response' : String(r.status);
  const sums = arithmetic(r);
  const full = `${status} ${r.verdict}${sums ? ` · ${sums}` : ''}`;
  const of = r.of === null ? 'an unknown stream' : `stream #${r.of}`;
  return { full, short: r.verdict, title: `Stream #${r.stream} resumes ${of} from Last-Event-ID ${lastEventId}: ${status}, ${r.verdict}${sums ? `, ${sums}` : ''}` };
}

/** A label's place in the band: its left edge and row, and which of its texts fit (null: none). */
export interface PlacedLabel {
  left: number;
  top: number;
  width: number;
  text: string | null;
}

/** Padding and border of a label around its text (lens.css `.resume-marker`). */
export const LABEL_CHROME_PX = 10;
/** A label without text: a pin on its line. */
export const PIN_PX = 10;
const GAP_PX = 4;

/**
 * Places the labels of the resumes in view (at canvas x `xs`, sorted or not) in the band's
 * `rows`: each centred on its line where it can be, kept inside [0, width], in the first row where
 * it overlaps no other label, full text first, then the short one. A label that fits nowhere
 * becomes a pin on its line: no text to overlap anything.
 */
export function placeResumeLabels(
  texts: readonly ResumeText[],
  xs: readonly number[],
  measure: (text: string) => number,
  width: number,
  rows: number,
): PlacedLabel[] {
  const taken: { left: number; right: number }[][] = Array.from({ length: rows }, () => []);
  const placed: PlacedLabel[] = new Array(texts.length);
  const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  for (const i of order) {
    placed[i] = { left: Math.round(xs[i]! - PIN_PX / 2), top: 2, width: PIN_PX, text: null };
    search: for (const text of [texts[i]!.full, texts[i]!.short]) {
      const w = Math.ceil(measure(text)) + LABEL_CHROME_PX;
      if (w > width) continue;
      const left = Math.round(Math.min(Math.max(0, xs[i]! - w / 2), Math.max(0, width - w)));
      for (let row = 0; row < rows; row++) {
        if (taken[row]!.some((t) => left < t.right + GAP_PX && t.left < left + w + GAP_PX)) continue;
        taken[row]!.push({ left, right: left + w });
        placed[i] = { left, top: row * BAND_ROW_PX + 2, width: w, text };
        break search;
      }
    }
  }
  return placed;
}
