/**
 * Finds where SSE events end in a byte stream that arrives in arbitrary chunks.
 *
 * The demo's load balancer needs this to cut a stream right after its K-th event, and the proxy
 * to find the legacy transport's first (`endpoint`) event. It counts a frame as
 * an event when it holds any field line (`id:`, `data:`, `event:`, `retry:`), so the SDK's
 * priming event (`id` + empty `data`) counts and a `: keepalive` comment does not. Line ends
 * may be LF, CR or CRLF, and a CRLF may be split across two chunks.
 */
export interface SseBoundaries {
  /** Offsets in `chunk` just past each event that ends inside it. */
  feed(chunk: Uint8Array): number[];
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

export function createSseBoundaries(): SseBoundaries {
  let lineLength = 0;
  let lineIsComment = false;
  let frameHasField = false;
  let lastWasCR = false;

  return {
    feed(chunk) {
      const ends: number[] = [];
      for (let i = 0; i < chunk.length; i += 1) {
        const byte = chunk[i];
        if (byte === LF && lastWasCR) {
          lastWasCR = false; // the LF of a CRLF; the CR already ended the line
          continue;
        }
        lastWasCR = byte === CR;
        if (byte !== LF && byte !== CR) {
          if (lineLength === 0) lineIsComment = byte === COLON;
          lineLength += 1;
          continue;
        }
        if (lineLength > 0) {
          if (!lineIsComment) frameHasField = true;
        } else if (frameHasField) {
          // Include the LF of a CRLF when it is in this chunk. When it is not, the event ends at
          // the CR, which the SSE spec also accepts as a line end, so a cut there is still clean.
          ends.push(byte === CR && chunk[i + 1] === LF ? i + 2 : i + 1);
          frameHasField = false;
        }
        lineLength = 0;
      }
      return ends;
    },
  };
}
