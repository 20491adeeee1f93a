import type { ElementHandle } from 'puppeteer-core';

/** The error red of each theme (timeline/palette.ts); tests may not import src/. */
export const ERROR_RED = { light: [197, 34, 31], dark: [242, 139, 130] } as const;

/** Pixels of colour `rgb` in a 7 px wide column of the timeline's canvas around a resume marker. */
export async function pixelsAt(marker: ElementHandle, rgb: readonly number[]): Promise<number> {
  return marker.evaluate((el, [r, g, b]) => {
    const canvas = document.querySelector('[data-testid="timeline"] canvas') as HTMLCanvasElement;
    // The marker's label may hang to one side of its line; data-x is the line (CSS px on the canvas).
    const x = Number((el as HTMLElement).dataset.x);
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const data = canvas.getContext('2d')!.getImageData(Math.round((x - 3) * ratio), 0, Math.round(7 * ratio), canvas.height).data;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 40) red++;
    return red;
  }, rgb);
}
