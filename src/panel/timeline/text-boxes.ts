import type { Ctx } from './ctx';

/** One piece of text drawn on the canvas: its box in CSS pixels of the canvas. */
export interface TextBox {
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
}

/** Height of the canvas's text (11 px type with its ascent and descent). */
export const TEXT_PX = 13;
/** Space kept free around every piece of text. */
const MARGIN_PX = 2;

const overlaps = (a: TextBox, b: TextBox): boolean =>
  a.x < b.x + b.w + MARGIN_PX && b.x < a.x + a.w + MARGIN_PX && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * The text of one frame, placed so that no two pieces overlap: what comes first (lane titles,
 * the scales) keeps its place, and a later label that would overlap anything, or leave `bounds`,
 * is not drawn. Labels are few (they appear only where marks are sparse), so a list will do.
 */
export function createTextBoxes(bounds: { left: number; right: number; top: number; bottom: number }, widths: TextWidths = createTextWidths()) {
  const placed: TextBox[] = [];
  // Where the context's x = 0 is on the canvas (the plot is drawn translated by its left edge).
  let dx = 0;
  return {
    placed,
    /** The width `text` takes in the context's font. */
    width: (ctx: Ctx, text: string): number => widths.of(ctx, text),
    /** The context is translated by `x` from here on (boxes stay in canvas pixels). */
    translated(x: number): void {
      dx = x;
    },
    /**
     * Draws `text` with its left edge at `x` (or its right edge, with `align` 'right'), centred
     * on `y`, when it fits; returns whether it was drawn.
     */
    draw(ctx: Ctx, text: string, x: number, y: number, align: 'left' | 'right' = 'left'): boolean {
      const w = widths.of(ctx, text);
      const left = align === 'left' ? x : x - w;
      const box = { x: left + dx, y: y - TEXT_PX / 2, w, h: TEXT_PX, text };
      if (box.x < bounds.left || box.x + w > bounds.right || box.y < bounds.top || box.y + box.h > bounds.bottom) return false;
      for (const other of placed) if (overlaps(box, other)) return false;
      placed.push(box);
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(text, left, y);
      return true;
    },
  };
}

export type TextBoxes = ReturnType<typeof createTextBoxes>;

/** Widths kept at most; past it the cache starts again (it only saves measuring). */
const MAX_WIDTHS = 2_000;

/**
 * Text widths measured once per text: a live session's frames draw the same tick, value and id
 * labels over and over, and measureText is not free. One font (the timeline's) per cache.
 */
export function createTextWidths() {
  const known = new Map<string, number>();
  return {
    of(ctx: Ctx, text: string): number {
      let w = known.get(text);
      if (w === undefined) {
        if (known.size >= MAX_WIDTHS) known.clear();
        known.set(text, (w = ctx.measureText(text).width));
      }
      return w;
    },
  };
}

export type TextWidths = ReturnType<typeof createTextWidths>;
