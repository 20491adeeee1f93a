import type { TapApi, TapLoss } from '../shared/messages';

const NAME: Record<TapApi, string> = { fetch: 'fetch', eventsource: 'EventSource', xhr: 'XMLHttpRequest' };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** Local wall-clock time with milliseconds, as DevTools shows request times. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/**
 * The page took an API away from the tap (replaced or froze over its wrapper). It stays up for
 * the whole capture: the panel has no way to know the tap sees that API again. A page can forge a
 * loss report only through the tap's own port, which it cannot reach; and a warning too many is
 * the worst a forgery could do. What the tap then missed is listed anyway, from the network panel.
 */
export function TapLostNotice({ losses, networkOnly }: { losses: readonly TapLoss[]; networkOnly: number }) {
  if (losses.length === 0) return null;
  const first = losses[0]!;
  const apis = losses.map((l) => NAME[l.api]).join(', ');
  return (
    <div class="notice notice-error" role="alert" data-testid="tap-lost" data-apis={losses.map((l) => l.api).join(' ')} data-network-only={networkOnly}>
      <span>
        Tap lost: the page replaced {apis} at {clockTime(first.time)}; later requests may be missing from this capture.{' '}
        {networkOnly === 1 ? '1 exchange was' : `${networkOnly} exchanges were`} seen only by the network panel (listed as “from the network panel”).
      </span>
    </div>
  );
}
