import { createParser } from 'eventsource-parser';

/** The fetch signature the SDK transports accept. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A resume that delivered nothing: `status` is the HTTP status it got (200 for an empty replay). */
export interface ResumeFailure {
  status: number;
  reason: string;
}

/**
 * Wraps `fetch` to watch the SDK's resumes (`GET` + `Last-Event-ID`) and report the two that
 * deliver nothing: one the server refused (any HTTP error), and one that answered 200 but closed
 * without a single message. The app needs this because the SDK keeps both to itself: it returns
 * quietly on 405, and after an empty replay it resumes again from the same cursor, for ever (to
 * the SDK a GET stream that closes is a poll). A replay that invents events is not detected
 * here: that is what the SDK, and this client, wrongly believe.
 */
export function watchResumes(base: Fetch, onFailure: (failure: ResumeFailure) => void): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET' || lastEventId === null) return response;
    if (!response.ok) {
      onFailure({ status: response.status, reason: `the resume from ${lastEventId} was answered ${response.status}` });
      return response;
    }
    if (!response.body) return response;

    let messages = 0;
    const parser = createParser({ onEvent: (event) => void (event.data.trim() !== '' && (messages += 1)) });
    const decoder = new TextDecoder();
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
        // Runs only when the body ended normally, before the SDK reads the end.
        flush() {
          if (messages === 0) onFailure({ status: response.status, reason: `the resume from ${lastEventId} answered ${response.status} but delivered no event` });
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** `fetch` as it is when called, so a tap installed on the page's `fetch` sees every request. */
export const currentFetch: Fetch = (input, init) => globalThis.fetch(input, init);
