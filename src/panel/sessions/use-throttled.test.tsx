// @vitest-environment happy-dom
import { signal } from '@preact/signals';
import { act, cleanup, render } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useThrottledSignal } from './use-throttled';

const seen: number[] = [];
const source = signal(0);
function Probe() {
  seen.push(useThrottledSignal(source, 250, (before, after) => after >= before));
  return null;
}
const last = () => seen.at(-1);

describe('useThrottledSignal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    seen.length = 0;
    source.value = 10;
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('passes the first value at once, holds growth for the interval, and always delivers the last', () => {
    render(<Probe />);
    expect(last()).toBe(10);
    // The first rise after a quiet spell goes through.
    act(() => void (source.value = 20));
    expect(last()).toBe(20);
    for (const value of [30, 40, 50]) {
      act(() => void (source.value = value));
      expect(last()).toBe(20);
    }
    act(() => void vi.advanceTimersByTime(249));
    expect(last()).toBe(20);
    act(() => void vi.advanceTimersByTime(1));
    expect(last()).toBe(50);
  });

  it('passes any other change at once, and the next growth waits its turn after it', () => {
    render(<Probe />);
    act(() => void (source.value = 200));
    act(() => void (source.value = 300));
    expect(last()).toBe(200);
    act(() => void (source.value = 5));
    expect(last()).toBe(5);
    // The pending growth to 300 was superseded, never shown after the fall.
    expect(seen).not.toContain(300);
    // The fall counts as a change: the next growth waits its turn.
    act(() => void (source.value = 100));
    expect(last()).toBe(5);
    act(() => void vi.advanceTimersByTime(250));
    expect(last()).toBe(100);
  });
});
