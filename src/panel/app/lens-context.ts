import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Lens } from './create-lens';

export const LensContext = createContext<Lens | null>(null);

/** The panel's state, for any component under `<LensContext.Provider>`. */
export function useLens(): Lens {
  const lens = useContext(LensContext);
  if (!lens) throw new Error('useLens() outside <LensContext.Provider>');
  return lens;
}
