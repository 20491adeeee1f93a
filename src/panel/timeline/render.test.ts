import { describe, expect, it } from 'vitest';
import { scenarios, type ScenarioName } from '../../../test/support/scenarios';
import { createAnalyzer, feed } from '../../core/index';
import type { Ctx } from './ctx';
import { createScratch } from './draw-stream';
import { toEventOrder } from './event-order';
import { bandRowsFor, layoutOf } from './layout';
import { PALETTES } from './palette';
import { drawTimeline } from './render';
import { sessionMarks } from './session-marks';
import type { TextBox } from './text-boxes';
import { fitView, zoomView } from './view';

/** A canvas stand-in: text is measured at a fixed advance per character, and every call is kept. */
function recordingCtx(): Ctx & { texts: { text: string; x: number; y: number }[] } {
  const texts: { text: string; x: number; y: number }[] = [];
  let dx = 0;
  const stack: number[] = [];
  const none = () => undefined;
  return {
    texts,
    fillStyle: '', strokeStyle: '', lineWidth: 1, font: '', textBaseline: 'alphabetic', textAlign: 'left', globalAlpha: 1,
    fillRect: none, clearRect: none, beginPath: none, closePath: none, moveTo: none, lineTo: none, stroke: none, fill: none, rect: none, setLineDash: none, clip: none,
    save: () => void stack.push(dx),
    restore: () => void (dx = stack.pop() ?? 0),
    translate: (x: number) => void (dx += x),
    fillText: (text: string, x: number, y: number) => void texts.push({ text, x: x + dx, y }),
    measureText: (text: string) => ({ width: text.length * 6.5 }) as TextMetrics,
  } as unknown as Ctx & { texts: { text: string; x: number; y: number }[] };
}

function dataOf(name: ScenarioName) {
  const exchanges = scenarios[name]();
  const analyzer = createAnalyzer();
  feed(analyzer, exchanges);
  const session = analyzer.report().sessions[0]!;
  const id = (s: number, e: number) => analyzer.events(s).idAt(e)?.slice(-14);
  return {
    data: sessionMarks({ session, events: (s) => analyzer.events(s), startTime: (s) => exchanges[s]?.startTime, endTime: (s) => exchanges[s]?.end.time }),
    idOf: id,
  };
}

const overlapping = (boxes: readonly TextBox[]): [string, string][] => {
  const pairs: [string, string][] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) pairs.push([a.text, b.text]);
    }
  }
  return pairs;
};

describe('drawing the timeline', () => {
  const sizes = [[1000, 300], [560, 220], [1000, 160]] as const;
  const names: ScenarioName[] = ['lostBuffer', 'genuine', 'duplicate', 'interleavedIds', 'rejected', 'liveSeqGap'];

  it('places every piece of text inside the canvas, overlapping no other, at every size and zoom', () => {
    for (const name of names) {
      const { data, idOf } = dataOf(name);
      for (const axisData of [data, toEventOrder(data)]) {
        for (const [width, height] of sizes) {
          const fitted = fitView(axisData.start, axisData.end);
          for (const view of [fitted, zoomView(fitted, 0.3, 0.9), zoomView(fitted, 0.05, 0.5)]) {
            const ctx = recordingCtx();
            const { text } = drawTimeline(ctx, { data: axisData, view, width, height, palette: PALETTES.light, selected: null, bandRows: bandRowsFor(axisData.resumes.length), idOf }, createScratch());
            const where = `${name} ${axisData.axis} ${width}x${height}`;
            expect(overlapping(text), where).toEqual([]);
            for (const b of text) expect(b.x >= 0 && b.x + b.w <= width && b.y >= 0 && b.y + b.h <= height, `${where}: ${b.text}`).toBe(true);
            // What was drawn is what the boxes say.
            expect(ctx.texts.map((t) => t.text)).toEqual(text.map((b) => b.text));
          }
        }
      }
    }
  });

  it('keeps the gutter for titles and the value scale: no plot text left of the plot', () => {
    const { data, idOf } = dataOf('lostBuffer');
    const layout = layoutOf(1000, 300, data.rows, 1);
    const { text } = drawTimeline(recordingCtx(), { data, view: fitView(data.start, data.end), width: 1000, height: 300, palette: PALETTES.dark, selected: null, bandRows: 1, idOf }, createScratch());
    const gutter = text.filter((b) => b.x < layout.plotLeft);
    expect(gutter.map((b) => b.text)).toEqual(expect.arrayContaining(['time', 'event ids', 'app_seq', String(data.seqMin), String(data.seqMax)]));
    for (const b of gutter) expect(b.x + b.w, b.text).toBeLessThanOrEqual(layout.plotLeft);
    // Lane 1's marks get their id labels where they fit, lane 2's points their values.
    expect(text.some((b) => b.x >= layout.plotLeft && /r1[78]$/.test(b.text))).toBe(true);
    expect(text.some((b) => b.x >= layout.plotLeft && b.text === '31')).toBe(true);
  });
});
