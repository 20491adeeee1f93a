import type { NavigationMark } from '../navigation-log';
import { clip, visibleLine } from '../text/visible';

/** Local wall-clock time with milliseconds: navigations can be a few ms apart. */
export function clockTime(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/**
 * A line between sessions: the inspected page became a new document here. The URL is the page's:
 * text only. In the sessions' list box it is an option that cannot be chosen (a list box holds
 * options only).
 */
export function NavigationMarker({ mark }: { mark: NavigationMark }) {
  return (
    <li class="navigation-marker" data-testid="navigation-marker" data-url={mark.url} data-time={mark.time} role="option" aria-disabled="true" aria-selected="false">
      navigated to {visibleLine(clip(mark.url, 200))} at {clockTime(mark.time)}
    </li>
  );
}
