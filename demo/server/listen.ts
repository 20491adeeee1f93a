import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening demo server: its MCP endpoint URL and a way to stop it. */
export interface Listening {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 only (never all interfaces) and resolves from the listen callback, so
 * callers wait for the real "ready" signal. `close` also ends open streams, which would
 * otherwise keep `server.close` waiting forever.
 */
export function listen(server: Server, port = 0, beforeClose?: () => Promise<void>): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${bound}/mcp`,
        async close() {
          await beforeClose?.();
          server.closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

/**
 * Serves `handle` on 127.0.0.1 (see {@link listen}); a handler that throws answers 500 with the
 * error's text instead of leaving the request hanging.
 */
export function listenWith(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port = 0,
  beforeClose?: () => Promise<void>,
): Promise<Listening> {
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  return listen(http, port, beforeClose);
}
