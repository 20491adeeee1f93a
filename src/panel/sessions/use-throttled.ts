import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * `value`, passed on at most once per `ms` while it keeps rising; the last rise always arrives,
 * `ms` after the one before. A value that falls is passed on at once: it means the data was
 * rebuilt (the panel's event cap), and the larger value may point past its end.
 */
export function useThrottled(value: number, ms: number): number {
  const [shown, setShown] = useState(value);
  const lastChange = useRef(0);
  useEffect(() => {
    if (value === shown) return;
    const update = () => {
      lastChange.current = Date.now();
      setShown(value);
    };
    const wait = lastChange.current + ms - Date.now();
    if (value < shown || wait <= 0) return update();
    const timer = setTimeout(update, wait);
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return Math.min(value, shown);
}
