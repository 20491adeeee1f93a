import { describe, expect, it } from 'vitest';
import { LIST_PX, OVERSCAN_ROWS, ROW_PX, rowWindow } from './row-window';

const inView = Math.ceil(LIST_PX / ROW_PX);

describe('rowWindow', () => {
  it('renders every row of a list shorter than the view', () => {
    expect(rowWindow(0, 5)).toEqual({ from: 0, to: 5 });
    expect(rowWindow(0, 0)).toEqual({ from: 0, to: 0 });
  });

  it('renders the rows in view and a few either side, not the whole list', () => {
    expect(rowWindow(0, 201)).toEqual({ from: 0, to: inView + OVERSCAN_ROWS });
    const top = 100 * ROW_PX + 7;
    expect(rowWindow(top, 201)).toEqual({ from: 100 - OVERSCAN_ROWS, to: Math.ceil((top + LIST_PX) / ROW_PX) + OVERSCAN_ROWS });
  });

  it('reaches the last row at the bottom, and stays inside the list when scrolled past it', () => {
    expect(rowWindow(201 * ROW_PX - LIST_PX, 201).to).toBe(201);
    const past = rowWindow(10_000 * ROW_PX, 201);
    expect(past).toEqual({ from: 201, to: 201 });
  });
});
