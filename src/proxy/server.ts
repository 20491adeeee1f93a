import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import type { AnalysisOptions } from '../core/index';
import { createCounters, MAX_CONNECTIONS, STOP_WAIT_MS, type ProxyCounters } from './caps';
import { createForwarder } from './forward';
import { hostPort, isLoopback, type ListenAddress } from './listen-address';
import { createLiveAnalysis, type LiveAnalysis } from './live-analysis';
import { createRecording, type Recording } from './recording';
import { openSpool, type Spool } from './spool';
import { clientUrl, type Target } from './targets';

export interface ProxyOptions {
  targets: readonly Target[];
  listen: ListenAddress;
  analysis?: AnalysisOptions;
}

export interface RunningProxy {
  /** `http://host:port` of the proxy. */
  origin: string;
  /** The URL a client uses for each target, in `--target` order. */
  urls: { name: string; url: string }[];
  recording: Recording;
  /** The live analysis of what is recorded (in a worker thread). */
  analysis: LiveAnalysis;
  counters: ProxyCounters;
  /** A warning to show when the proxy listens beyond this machine, else undefined. */
  exposure: string | undefined;
  /**
   * Stops accepting, waits for open exchanges up to `waitMs`, then cuts what is still open (the
   * recording keeps those as `open`: still streaming when the capture ended).
   */
  stop(waitMs?: number): Promise<{ cut: number }>;
  /** Ends the analysis and gives back the recording's spool, once the recording has been read. */
  close(): Promise<void>;
}

/** Starts the recording reverse proxy. Rejects, saying why for a user, when it cannot record or listen. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const counters = createCounters();
  let spool: Spool;
  try {
    spool = openSpool();
  } catch (error) {
    throw new Error(`cannot create the recording's file in ${tmpdir()} (${codeOf(error)}); set TMPDIR to a writable folder`);
  }
  const recording = createRecording(counters, spool);
  const analysis = createLiveAnalysis(recording, spool, options.analysis ?? {});
  const close = async () => {
    await analysis.close(); // the worker reads the spool until then
    spool.close();
  };
  const server = createServer({ requireHostHeader: false });
  server.maxConnections = MAX_CONNECTIONS;
  server.on('drop', () => (counters.connectionsRefused += 1));
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // A client that resets an idle keep-alive connection sent nothing wrong.
    if (error.code !== 'ECONNRESET') counters.badClientRequests += 1;
    if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  let origin: string;
  try {
    origin = await listenOn(server, options.listen);
  } catch (error) {
    await close();
    throw new Error(`cannot listen on ${options.listen.host}:${options.listen.port} (${codeOf(error)})`);
  }
  const forward = createForwarder({ targets: options.targets, recording, counters, origin });
  server.on('request', (req, res) => {
    try {
      forward(req, res);
    } catch {
      // A request Node's server parsed but its client will not send on (a header it refuses):
      // answered here, never a crash.
      counters.badClientRequests += 1;
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('mcp-stream-lens proxy: this request cannot be passed on\n');
    }
  });
  return {
    origin,
    urls: options.targets.map((target) => ({ name: target.name, url: clientUrl(origin, target) })),
    recording,
    analysis,
    counters,
    exposure: isLoopback(options.listen.host) ? undefined : exposureWarning(origin),
    close,
    async stop(waitMs = STOP_WAIT_MS) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), waitMs)));
      const outcome = await Promise.race([recording.settled(), bound]);
      clearTimeout(timer);
      const cut = outcome === 'timeout' ? recording.openCount() : 0;
      recording.freeze();
      for (const socket of sockets) socket.destroy();
      await closed;
      return { cut };
    },
  };
}

function exposureWarning(origin: string): string {
  return (
    `warning: the proxy listens on ${origin}, beyond this machine. Anyone who can reach that address can use ` +
    'your MCP server through it, with no authentication of its own, and everything they send is recorded.'
  );
}

function listenOn(server: Server, at: ListenAddress): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve(`http://${hostPort(at.host, port)}`);
    });
  });
}

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);
