// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useThrottled } from './use-throttled';

const seen: number[] = [];
function Probe({ value }: { value: number }) {
  seen.push(useThrottled(value, 250));
  return null;
}
const last = () => seen.at(-1);

describe('useThrottled', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    seen.length = 0;
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('passes the first value at once, holds rises for the interval, and always delivers the last', () => {
    const { rerender } = render(<Probe value={10} />);
    expect(last()).toBe(10);
    // The first rise after a quiet spell goes through (the effect updates at once).
    act(() => rerender(<Probe value={20} />));
    expect(last()).toBe(20);
    for (const value of [30, 40, 50]) {
      act(() => rerender(<Probe value={value} />));
      expect(last()).toBe(20);
    }
    act(() => void vi.advanceTimersByTime(249));
    expect(last()).toBe(20);
    act(() => void vi.advanceTimersByTime(1));
    expect(last()).toBe(50);
  });

  it('passes a fall at once, never a value larger than the current one', () => {
    const { rerender } = render(<Probe value={100} />);
    act(() => rerender(<Probe value={200} />));
    act(() => rerender(<Probe value={300} />));
    expect(last()).toBe(200);
    const fell = seen.length;
    act(() => rerender(<Probe value={5} />));
    // Not one render, not even the one before the effect runs, sees more than there is.
    expect(seen.slice(fell).every((v) => v <= 5)).toBe(true);
    expect(last()).toBe(5);
    // The fall counts as a change: the next rise waits its turn.
    act(() => rerender(<Probe value={100} />));
    expect(last()).toBe(5);
    act(() => void vi.advanceTimersByTime(250));
    expect(last()).toBe(100);
  });
});
