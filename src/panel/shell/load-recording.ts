import { readHar } from '../../core/index';
import { isBackgroundProducer, type Delivery } from '../../shared/messages';
import type { createReplayAdapter } from '../host/replay-adapter';

/**
 * Fetches `?har=` (a HAR file) or `?capture=` (deliveries recorded from the background, as JSON)
 * and replays it as the shell's live capture. Returns a reason when it cannot.
 */
export async function loadRecording(url: string, kind: 'har' | 'capture', replay: ReturnType<typeof createReplayAdapter>): Promise<string | null> {
  let text: string;
  try {
    const response = await fetch(url);
    if (!response.ok) return `${url} answered ${response.status}`;
    text = await response.text();
  } catch (error) {
    return `${url} could not be fetched (${error instanceof Error ? error.message : String(error)})`;
  }
  if (kind === 'har') {
    const result = readHar(text);
    if (!result.ok) return `${url}: ${result.reason}`;
    replay.replayExchanges(result.exchanges);
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `${url} is not JSON`;
  }
  const list = Array.isArray(value) ? value : (value as { deliveries?: unknown })?.deliveries;
  if (!Array.isArray(list) || !list.every(isDeliveryShape)) return `${url} is not a list of recorded deliveries`;
  replay.replayDeliveries(list);
  return null;
}

/** A recorded or live delivery's outer shape (what the capture store then reads item by item). */
export function isDeliveryShape(value: unknown): value is Delivery {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Record<string, unknown>;
  if (d.from === 'network') return typeof d.exchange === 'object' && d.exchange !== null;
  // `by` names who made the copy: absent for a tap's, else one of the known producers only.
  return d.from === 'relay' && typeof d.relay === 'string' && Number.isInteger(d.seq) && Array.isArray(d.items) && typeof d.counters === 'object' && (d.by === undefined || isBackgroundProducer(d.by));
}
