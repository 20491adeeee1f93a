import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRAME_MS, HIDDEN_FRAME_MS, nextFrame } from './next-frame';

describe('nextFrame', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('runs work once, in the next frame, and work that work queues in that same frame', () => {
    const done: string[] = [];
    nextFrame(() => {
      done.push('rebuild');
      nextFrame(() => done.push('paint'));
    });
    nextFrame(() => done.push('other'));
    expect(done).toEqual([]);
    vi.advanceTimersByTime(FRAME_MS);
    expect(done).toEqual(['rebuild', 'other', 'paint']);
    vi.advanceTimersByTime(FRAME_MS * 10);
    expect(done).toHaveLength(3);
  });

  it('does not run cancelled work, and runs the same work once however often it was queued', () => {
    const work = vi.fn();
    const cancelled = vi.fn();
    nextFrame(work);
    nextFrame(work);
    nextFrame(cancelled)();
    vi.advanceTimersByTime(FRAME_MS);
    expect(work).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('leaves work that keeps queuing itself to later frames', () => {
    let runs = 0;
    let going = true;
    const again = () => {
      runs++;
      if (going) nextFrame(again);
    };
    nextFrame(again);
    vi.advanceTimersByTime(FRAME_MS);
    const perFrame = runs;
    expect(perFrame).toBeGreaterThan(1);
    expect(perFrame).toBeLessThan(10);
    vi.advanceTimersByTime(FRAME_MS);
    expect(runs).toBe(perFrame * 2);
    going = false;
    vi.advanceTimersByTime(FRAME_MS);
  });

  it('still runs the rest of a frame when one piece of work throws, and rethrows its error', () => {
    const after = vi.fn();
    nextFrame(() => {
      throw new Error('broken paint');
    });
    nextFrame(after);
    vi.advanceTimersByTime(FRAME_MS);
    expect(after).toHaveBeenCalledTimes(1);
    // In a task of its own, as an uncaught error would be.
    expect(() => vi.advanceTimersByTime(FRAME_MS)).toThrow('broken paint');
  });

  it('uses animation frames where there are some, with a timer for a hidden document', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => void (frames[handle - 1] = () => {}));
    const work = vi.fn();
    nextFrame(work);
    expect(frames).toHaveLength(1);
    frames[0]!(0);
    expect(work).toHaveBeenCalledTimes(1);
    // The timer the frame beat does nothing more.
    vi.advanceTimersByTime(HIDDEN_FRAME_MS);
    expect(work).toHaveBeenCalledTimes(1);
    // No frame comes (the panel is hidden): the timer runs the work.
    nextFrame(work);
    vi.advanceTimersByTime(HIDDEN_FRAME_MS);
    expect(work).toHaveBeenCalledTimes(2);
    // The frame that never came is cancelled.
    frames[1]!(0);
    expect(work).toHaveBeenCalledTimes(2);
  });
});
