import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { build } from 'vite';
import { startLegacyReplica } from '../../../demo/server/legacy-replica';
import { startReplica, type Replica } from '../../../demo/server/replica';

/**
 * The e2e web site on 127.0.0.1: a page running the real SDK browser client, and `/mcp` proxied
 * to a real SDK server (the demo replica, with its event store). `resetStreams()` resets the TCP
 * connection of every event stream in flight, as a load balancer drain would.
 */
export interface Site {
  origin: string;
  /** Resets every open event-stream response; resolves with how many were reset. */
  resetStreams(): number;
  /** Closes every `/cut` response mid-body (a FIN inside chunked encoding: a network error). */
  cutStreams(): number;
  /** Requests seen on /mcp, in order: method and Last-Event-ID. */
  mcpRequests: { method: string; lastEventId: string | undefined }[];
  close(): Promise<void>;
}

/**
 * A hand-written client of the legacy transport on the browser's own APIs: the event stream
 * through EventSource, the requests through XMLHttpRequest. Calls long_task with a progress token.
 */
const LEGACY_NATIVE = `
  const status = document.getElementById('status');
  const es = new EventSource('/legacy/sse');
  const post = (url, message) => { const x = new XMLHttpRequest(); x.open('POST', url); x.setRequestHeader('content-type', 'application/json'); x.send(JSON.stringify(message)); };
  let endpoint = '';
  es.addEventListener('endpoint', (e) => {
    endpoint = e.data;
    post(endpoint, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'legacy-native', version: '1' } } });
  });
  es.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id === 1) {
      post(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' });
      post(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'long_task', arguments: { steps: 3, delayMs: 10 }, _meta: { progressToken: 'p' } } });
    } else if (m.id === 2) { status.textContent = 'done'; es.close(); }
  };`;

const PAGE = (body: string) => `<!doctype html><meta charset="utf-8"><title>e2e</title><body>${body}</body>`;

async function bundleClient(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: resolve(import.meta.dirname, 'client-page.ts'), formats: ['iife'], name: 'McpE2e', fileName: () => 'client.js' },
    },
  });
  const outputs = Array.isArray(out) ? out : [out];
  for (const o of outputs) if ('output' in o) for (const chunk of o.output) if (chunk.type === 'chunk') return chunk.code;
  throw new Error('client bundle missing');
}

export async function startSite(): Promise<Site> {
  const [client, replica, legacy] = await Promise.all([
    bundleClient(),
    startReplica({ name: 'e2e' }) as Promise<Replica>,
    // The 2024-11-05 HTTP+SSE transport, mounted under /legacy.
    startLegacyReplica({ name: 'e2e-legacy', messagesPath: '/legacy/messages' }),
  ]);
  const live = new Set<ServerResponse>();
  const cuttable = new Set<ServerResponse>();
  const mcpRequests: Site['mcpRequests'] = [];

  function proxy(req: IncomingMessage, res: ServerResponse, to: string, path: string): void {
    const upstream = new URL(to);
    const lastEventId = req.headers['last-event-id'];
    mcpRequests.push({ method: req.method ?? '', lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined });
    const up = httpRequest({ host: upstream.hostname, port: upstream.port, path, method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      if (String(upRes.headers['content-type']).includes('text/event-stream')) {
        live.add(res);
        res.on('close', () => live.delete(res));
      }
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    req.pipe(up);
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/mcp') return proxy(req, res, replica.url, req.url ?? '/');
    if (path.startsWith('/legacy/')) return proxy(req, res, legacy.url, (req.url ?? '/').slice('/legacy'.length));
    if (path === '/cut') {
      // One whole event and half of the next in one write; `cutStreams()` then closes the
      // connection mid-body, once the test has seen the whole event arrive.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'cut-session' });
      res.write('id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\nid: 2\ndata: {"jsonrpc":"2.0","method":"notifications/progr');
      cuttable.add(res);
      return;
    }
    if (path === '/legacy-native') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(`<p id="status">loading</p><script>${LEGACY_NATIVE}</script>`));
    if (path === '/client.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(client);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE('<p id="status">loading</p><p id="progress"></p><script src="/client.js"></script>'));
    if (path === '/data.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"plain":true}');
    if (path === '/ticks') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: tick 1\n\ndata: tick 2\n\n');
    if (path === '/worker') {
      // An MCP initialize made from a dedicated worker: invisible to the MAIN-world tap.
      const worker = `fetch(self.origin + '/mcp', { method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'worker', version: '1' } } }) })
        .then((r) => r.text()).then((t) => postMessage(t));`;
      const script = `const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' })));
        w.onmessage = () => { document.getElementById('status').textContent = 'done'; };`;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(`<p id="status">loading</p><script>${script}</script>`));
    }
    if (path === '/plain') {
      // A page with no MCP traffic: a JSON POST that is not JSON-RPC, a GET, and an event stream.
      const script = `Promise.all([fetch('/data.json',{method:'POST',headers:{'content-type':'application/json'},body:'{"hello":1}'}).then(r=>r.text()),
        fetch('/data.json').then(r=>r.json()), fetch('/ticks',{headers:{accept:'text/event-stream'}}).then(r=>r.text()),
        new Promise(ok=>{const x=new XMLHttpRequest();x.open('GET','/data.json');x.onload=ok;x.send();})])
        .then(()=>{document.getElementById('status').textContent='done'})`;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(`<p id="status">loading</p><script>${script}</script>`));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    mcpRequests,
    cutStreams() {
      const n = cuttable.size;
      for (const res of cuttable) res.socket?.destroy();
      cuttable.clear();
      return n;
    },
    resetStreams() {
      const n = live.size;
      for (const res of live) res.socket?.resetAndDestroy();
      live.clear();
      return n;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await Promise.all([replica.close(), legacy.close()]);
    },
  };
}
