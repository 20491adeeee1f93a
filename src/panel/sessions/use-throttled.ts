import { effect, type ReadonlySignal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * `source`'s value, passed on at most once per `ms` while it only `grew` (a live stream's new
 * events); the last value always arrives, `ms` after the one before. Any other change (another
 * session, a filter, data rebuilt smaller by the event cap) is passed on at once.
 */
export function useThrottledSignal<T>(source: ReadonlySignal<T>, ms: number, grew: (before: T, after: T) => boolean): T {
  const [shown, setShown] = useState<{ value: T }>(() => ({ value: source.peek() }));
  const state = useRef<{ last: number; timer: ReturnType<typeof setTimeout> | undefined; shown: T }>({ last: 0, timer: undefined, shown: source.peek() });
  useEffect(() => {
    const st = state.current;
    const stop = effect(() => {
      const next = source.value;
      clearTimeout(st.timer);
      if (next === st.shown) return;
      const show = () => {
        st.last = Date.now();
        st.shown = next;
        setShown({ value: next });
      };
      const wait = st.last + ms - Date.now();
      if (wait <= 0 || !grew(st.shown, next)) return show();
      st.timer = setTimeout(show, wait);
    });
    return () => {
      stop();
      clearTimeout(st.timer);
    };
  }, [source, ms]);
  return shown.value;
}
