// The floor for the proxy's throughput: a reverse proxy made of node:http's request and pipe and
// nothing else (no recording, no analysis, no header rewriting), run by plain node in a process
// of its own, as `mcp-stream-lens proxy` is. What it reaches is what any Node HTTP proxy reaches
// on the machine. Prints its origin on stdout once it listens.
//
//   node bench/bare-proxy.mjs http://127.0.0.1:PORT
import { createServer, request } from 'node:http';

const target = new URL(process.argv[2] ?? '');
const server = createServer((req, res) => {
  // `agent: false`: a connection of its own per exchange, as the product proxy opens.
  const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent: false }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
