/** Canvas colours per DevTools theme; CSS colours live in lens.css with the same values. */
export interface Palette {
  background: string;
  grid: string;
  text: string;
  muted: string;
  laneBackground: string;
  /** One colour per stream slot (order within the session, wrapping). */
  streams: readonly string[];
  error: string;
  warning: string;
  ok: string;
  info: string;
  selection: string;
}

export type Theme = 'light' | 'dark';

export const PALETTES: Record<Theme, Palette> = {
  light: {
    background: '#ffffff',
    grid: '#e3e3e3',
    text: '#1f1f1f',
    muted: '#6b6b6b',
    laneBackground: '#f7f7f7',
    streams: ['#1a73e8', '#7b1fa2', '#00897b', '#ef6c00', '#5d4037', '#3949ab', '#558b2f', '#c2185b'],
    error: '#c5221f',
    warning: '#8a5300',
    ok: '#137333',
    info: '#5f6368',
    selection: '#000000',
  },
  dark: {
    background: '#202124',
    grid: '#3c4043',
    text: '#e8eaed',
    muted: '#9aa0a6',
    laneBackground: '#292a2d',
    streams: ['#8ab4f8', '#c58af9', '#4ecde6', '#fcad70', '#bcaaa4', '#9fa8da', '#aed581', '#f48fb1'],
    error: '#f28b82',
    warning: '#fdd663',
    ok: '#81c995',
    info: '#9aa0a6',
    selection: '#ffffff',
  },
};

export const streamColour = (palette: Palette, slot: number): string => palette.streams[slot % palette.streams.length]!;
