import type { TapEmitter } from './emitter';
import type { Primordials } from './primordials';

/** What every API wrapper of the tap shares: built-ins, the emitter, and stream numbering. */
export interface TapContext {
  p: Primordials;
  out: TapEmitter;
  /** The next stream number of this page; unique per tap instance. */
  nextStream(): number;
}

export function createTapContext(p: Primordials, out: TapEmitter): TapContext {
  let next = 0;
  return { p, out, nextStream: () => next++ };
}
