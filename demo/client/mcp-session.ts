import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { guardClient, guardTransport, type GuardOptions } from '../../src/guard/index.js';
import { STATELESS_REVISION, type ClientKind } from '../scenario-catalog.js';
import { currentFetch, watchResumes } from './resume-watch.js';
import { askingForRevision, withRevisionHeaders } from './revision-headers.js';

/**
 * 100 ms away is a few tool steps, so a genuine resume really replays events from the log (not
 * only live ones). One attempt, so a refused resume ends in the SDK's "give up" signal instead
 * of a retry loop.
 */
export const RECONNECTION = { initialReconnectionDelay: 100, maxReconnectionDelay: 400, reconnectionDelayGrowFactor: 2, maxRetries: 1 };

/** One connected SDK client and what the app learns about its resumes. */
export interface McpSession {
  client: Client;
  /** Resolves, with the reason, once a resume of this session delivered nothing. */
  resumeFailed: Promise<string>;
  /** Ends the session (DELETE where the transport has one) and closes the client. */
  close(): Promise<void>;
  /**
   * Closes the client at once, without a DELETE: after a failed resume the SDK may have a
   * reconnect scheduled, and only closing the transport cancels it. (Ending the session first
   * would let that reconnect go out meanwhile, without a session id.)
   */
  abandon(): Promise<void>;
}

/**
 * Connects the real SDK client over the transport `kind` needs. `onError` hears everything the
 * SDK reports through `onerror` (disconnects, failed resumes). `options.protocolVersion` makes
 * `initialize` ask for that revision instead of the SDK's newest (see {@link askingForRevision}).
 *
 * A failed resume is noticed two ways: the SDK's own "Maximum reconnection attempts" after it
 * gave up, and {@link watchResumes} for the resumes the SDK does not give up on (405, empty).
 *
 * With `guard`, the transport goes through `mcp-stream-lens/guard` (and the client's requests
 * through `guardClient`), and the client lists the tools first, so the guard knows which ones the
 * server marks idempotent.
 */
export async function openSession(
  url: string,
  kind: ClientKind,
  onError: (message: string) => void,
  guard?: GuardOptions,
  options: { protocolVersion?: string } = {},
): Promise<McpSession> {
  let fail: (reason: string) => void = () => {};
  const resumeFailed = new Promise<string>((resolve) => (fail = resolve));
  const client = guard ? guardClient(new Client({ name: 'stream-lens-demo', version: '0.1.0' })) : new Client({ name: 'stream-lens-demo', version: '0.1.0' });
  client.onerror = (error) => {
    onError(error.message);
    if (error.message.startsWith('Maximum reconnection attempts')) fail(error.message);
  };

  const asking = options.protocolVersion === undefined ? currentFetch : askingForRevision(currentFetch, options.protocolVersion);
  const base = kind === 'stateless' ? withRevisionHeaders(asking, STATELESS_REVISION) : asking;
  const plain =
    kind === 'legacy-sse'
      ? new SSEClientTransport(new URL(url))
      : new StreamableHTTPClientTransport(new URL(url), { fetch: watchResumes(base, (failure) => fail(failure.reason)), reconnectionOptions: RECONNECTION });
  const transport: Transport = guard ? guardTransport(plain, guard) : plain;
  await client.connect(transport);
  if (guard) await client.listTools();

  let closed = false;
  return {
    client,
    resumeFailed,
    async close() {
      if (closed) return;
      closed = true;
      // A well-behaved client ends its session (spec: SHOULD DELETE); a 404 or 405 is fine here.
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
    async abandon() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
