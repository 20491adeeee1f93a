/**
 * The streams pane as arithmetic. Every stream is a block: its header row, then one row per
 * event (none while collapsed). Heights are fixed (lens.css holds the rows to them), so which
 * rows are in view, and where any row stands, is arithmetic, never a layout read: one scroll
 * container for every stream, and only the rows in view are elements.
 */

/** Height of one event row, CSS px. */
export const ROW_PX = 20;
/** Height of a stream's header row, CSS px. */
export const HEAD_PX = 24;
/** Rows rendered beyond each edge of the view, so a short scroll shows rows before the next render. */
export const OVERSCAN_ROWS = 6;

export interface Block {
  /** Rows the block holds (its stream's shown events, or 0 while collapsed). */
  rows: number;
}

/** Where a block stands, and which of its rows [from, to) are rendered. */
export interface BlockWindow {
  top: number;
  from: number;
  to: number;
}

/** Total height of the pane's content. */
export const contentHeight = (blocks: readonly Block[]): number => blocks.reduce((h, b) => h + HEAD_PX + b.rows * ROW_PX, 0);

/** Each block's top and the rows of it in view at `scrollTop` in a pane `viewport` px tall. */
export function blockWindows(blocks: readonly Block[], scrollTop: number, viewport: number): BlockWindow[] {
  const low = scrollTop - OVERSCAN_ROWS * ROW_PX;
  const high = scrollTop + viewport + OVERSCAN_ROWS * ROW_PX;
  let top = 0;
  return blocks.map((b) => {
    const first = top + HEAD_PX;
    const from = Math.min(b.rows, Math.max(0, Math.floor((low - first) / ROW_PX)));
    const to = Math.min(b.rows, Math.max(from, Math.ceil((high - first) / ROW_PX)));
    const window = { top, from, to };
    top = first + b.rows * ROW_PX;
    return window;
  });
}

/** The top of row `row` of block `block` (-1: its header), CSS px from the top of the content. */
export function rowTop(blocks: readonly Block[], block: number, row: number): number {
  let top = 0;
  for (let b = 0; b < block; b++) top += HEAD_PX + blocks[b]!.rows * ROW_PX;
  return row < 0 ? top : top + HEAD_PX + row * ROW_PX;
}

/** The scrollTop that brings [top, top + height) into a pane `viewport` tall, or `scrollTop` when it is in view. */
export function scrollToShow(scrollTop: number, viewport: number, top: number, height: number): number {
  if (top < scrollTop) return top;
  if (top + height > scrollTop + viewport) return Math.max(0, top + height - viewport);
  return scrollTop;
}
