import { describe, expect, it } from 'vitest';
import { PROGRESS_MIN_BYTES, progressLine } from './progress';

const BIG = PROGRESS_MIN_BYTES + 1;
const stream = (isTTY: boolean) => {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
};

describe('the CLI progress line', () => {
  it('is shown for a big file on a terminal, redrawn in place, and cleared at the end', () => {
    const tty = stream(true);
    const line = progressLine('a.har', BIG, tty, false, {})!;
    line.update(0, BIG);
    line.update(BIG, BIG);
    line.end();
    expect(tty.written[0]).toMatch(/^\r\x1b\[K.*reading a\.har: 0% \(0 MB of 50 MB\)$/);
    expect(tty.written[1]).toMatch(/100%/);
    expect(tty.written.at(-1)).toBe('\r\x1b[K');
  });

  it('is not shown for a small file, nor where stderr is no terminal, nor under CI, unless asked', () => {
    expect(progressLine('a.har', PROGRESS_MIN_BYTES - 1, stream(true), true, {})).toBeUndefined();
    expect(progressLine('a.har', BIG, stream(false), false, {})).toBeUndefined();
    expect(progressLine('a.har', BIG, stream(true), false, { CI: 'true' })).toBeUndefined();
    expect(progressLine('a.har', BIG, stream(true), false, { CI: 'false' })).toBeDefined();
    const log = stream(false);
    const asked = progressLine('a.har', BIG, log, true, { CI: 'true' })!;
    asked.update(BIG / 2, BIG);
    asked.update(BIG, BIG);
    asked.end();
    // Where it is no terminal, whole lines, and no control characters.
    expect(log.written).toEqual([expect.stringMatching(/: 50% .*\n$/), expect.stringMatching(/: 100% .*\n$/)]);
  });
});
