import type { EventRecord } from '../../core/index';

/** The event as it went over the wire (field order normalised: event, id, retry, data). */
export function rawSse(e: EventRecord): string {
  let out = '';
  if (e.event !== undefined) out += `event: ${e.event}\n`;
  if (e.id !== undefined) out += `id: ${e.id}\n`;
  if (e.retry !== undefined) out += `retry: ${e.retry}\n`;
  if (!e.idOnly) for (const line of e.data.split('\n')) out += `data: ${line}\n`;
  return out;
}

/** Pretty-printed JSON of the event's data, or undefined when it is not JSON. */
export function prettyJson(data: string): string | undefined {
  if (data === '') return undefined;
  try {
    return JSON.stringify(JSON.parse(data), null, 2);
  } catch {
    return undefined;
  }
}
