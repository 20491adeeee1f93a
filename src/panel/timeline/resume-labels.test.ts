import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResumeMark } from './marks';
import { arithmetic, placeResumeLabels, resumeText, type ResumeText } from './resume-labels';

const mark = (fields: Partial<ResumeMark>): ResumeMark => ({ stream: 4, of: 3, time: 0, lastEventId: 'x', status: 200, verdict: 'gap', bad: true, tone: 'error', ...fields });
const measure = (text: string) => text.length * 6.5;

describe('resume labels', () => {
  it('show the boundary\'s arithmetic as far as it is known', () => {
    expect(arithmetic({ lastSeen: 5, expected: 6, got: 11 })).toBe('5 → expected 6 · got 11');
    expect(arithmetic({ lastSeen: 5, got: 6 })).toBe('5 → 6');
    expect(arithmetic({})).toBe('');
    expect(resumeText(mark({ lastSeen: 5, expected: 6, got: 11 }), 'abc').full).toBe('200 gap · 5 → expected 6 · got 11');
    expect(resumeText(mark({ status: 409, verdict: 'rejected', tone: 'info', bad: false }), 'abc')).toMatchObject({ full: '409 rejected', short: 'rejected' });
    expect(resumeText(mark({ status: 0, verdict: 'empty' }), 'abc').title).toContain('Last-Event-ID abc: no response, empty');
  });

  it('never overlap one another, stay inside the canvas, and shorten or become pins before they would', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 800 }), fc.string({ maxLength: 40 })), { maxLength: 8 }), fc.integer({ min: 1, max: 2 }), (resumes, rows) => {
        const texts: ResumeText[] = resumes.map(([, t]) => ({ full: `200 gap · ${t}`, short: 'gap', title: t }));
        const placed = placeResumeLabels(texts, resumes.map(([x]) => x), measure, 800, rows);
        const withText = placed.filter((p) => p.text !== null);
        for (const p of withText) expect(p.left >= 0 && p.left + p.width <= 800).toBe(true);
        for (const a of withText) for (const b of withText) if (a !== b && a.top === b.top) expect(a.left + a.width <= b.left || b.left + b.width <= a.left).toBe(true);
      }),
    );
  });

  it('puts a second label that would collide in the next row, and a third in short form or as a pin', () => {
    const texts = [0, 1, 2].map(() => resumeText(mark({ lastSeen: 5, expected: 6, got: 11 }), 'x'));
    const placed = placeResumeLabels(texts, [400, 410, 420], measure, 800, 2);
    expect(placed[0]!.top).not.toBe(placed[1]!.top);
    expect(placed[0]!.text).toBe(texts[0]!.full);
    expect(placed[1]!.text).toBe(texts[1]!.full);
    expect(placed[2]!.text === null || placed[2]!.text === 'gap').toBe(true);
  });
});
