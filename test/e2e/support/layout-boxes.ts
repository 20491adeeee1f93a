import type { Frame, Page } from 'puppeteer-core';

/** A box in CSS pixels of the viewport. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** What the layout check reads off the panel, all from getBoundingClientRect. */
export interface LayoutBoxes {
  viewport: { width: number; height: number };
  /** The timeline's canvas box. */
  timeline: Box | null;
  /** The detail (event or stream), when one is shown. */
  detail: Box | null;
  /** Visible text boxes: lines of DOM text, clipped by their scroll containers, and the canvas's text. */
  texts: number;
  /** Pairs of text boxes that overlap, with what they say. */
  overlaps: { a: string; b: string; area: number }[];
}

/**
 * Plain JavaScript evaluated in the panel's document (text, so no transpiler helper sneaks in).
 * Every visible text node is measured line by line (Range.getClientRects) and clipped by each
 * ancestor that clips (overflow other than visible), as a user sees it; the canvas's text comes
 * from its data-text-boxes (the boxes the renderer placed, in canvas pixels). Two boxes overlap
 * when they share more than a pixel both ways.
 */
const READ = `(() => {
  const clipOf = (el) => {
    let box = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.clip !== 'auto') {
        // Overflow is clipped at the padding box: the border box less the borders.
        const r = a.getBoundingClientRect();
        const left = r.left + a.clientLeft;
        const top = r.top + a.clientTop;
        box = { left: Math.max(box.left, left), top: Math.max(box.top, top), right: Math.min(box.right, left + a.clientWidth), bottom: Math.min(box.bottom, top + a.clientHeight) };
      }
    }
    return box;
  };
  const texts = [];
  let nodes = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('option, script, style, title') || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const clip = clipOf(el);
    const range = document.createRange();
    range.selectNodeContents(node);
    nodes += 1;
    for (const r of range.getClientRects()) {
      const box = { left: Math.max(r.left, clip.left), top: Math.max(r.top, clip.top), right: Math.min(r.right, clip.right), bottom: Math.min(r.bottom, clip.bottom) };
      if (box.right - box.left < 2 || box.bottom - box.top < 2) continue;
      texts.push({ ...box, node: nodes, text: node.data.trim().slice(0, 40) });
    }
  }
  const canvas = document.querySelector('[data-testid="timeline"] canvas');
  const canvasBox = canvas ? canvas.getBoundingClientRect() : null;
  if (canvas && canvas.dataset.textBoxes) {
    for (const part of canvas.dataset.textBoxes.split(' ')) {
      const [x, y, w, h] = part.split(',').map(Number);
      texts.push({ left: canvasBox.left + x, top: canvasBox.top + y, right: canvasBox.left + x + w, bottom: canvasBox.top + y + h, node: -texts.length, text: 'canvas text at ' + x + ',' + y });
    }
  }
  const overlaps = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], b = texts[j];
      // One text node may give several boxes for one line (an ellipsis, a bidi run): not two texts.
      if (a.node === b.node) continue;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) overlaps.push({ a: a.text, b: b.text, area: Math.round(w * h) });
    }
  }
  const plain = (r) => (r ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null);
  const detail = document.querySelector('[data-testid="event-detail"], [data-testid="stream-detail"]');
  return {
    viewport: { width: innerWidth, height: innerHeight },
    timeline: plain(canvasBox),
    detail: detail && detail.checkVisibility() ? plain(detail.getBoundingClientRect()) : null,
    texts: texts.length,
    overlaps,
  };
})()`;

export async function readLayout(target: Page | Frame): Promise<LayoutBoxes> {
  return (await target.evaluate(READ)) as LayoutBoxes;
}

/** Whether `box` lies wholly inside the viewport. */
export const inside = (box: Box, viewport: { width: number; height: number }): boolean =>
  box.left >= 0 && box.top >= 0 && box.right <= viewport.width + 0.5 && box.bottom <= viewport.height + 0.5;
