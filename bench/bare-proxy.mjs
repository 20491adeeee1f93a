// The floor for the proxy's throughput: the least a Node process can do to pass the stream on, a
// TCP byte pipe (no HTTP, no recording, no analysis) that reads into reused buffers, run by plain
// node in a process of its own, as `mcp-stream-lens proxy` is. Reused buffers, because Node's
// default of a fresh buffer per read costs more here than the rest of the forwarding (a pipe()
// proxy, or one made of node:http's request and pipe, reaches far less). Prints its origin on
// stdout once it listens.
//
//   node bench/bare-proxy.mjs http://127.0.0.1:PORT
import { connect, createServer } from 'node:net';

const target = new URL(process.argv[2] ?? '');
const READ_BYTES = 64 * 1024;
const server = createServer((client) => {
  // A buffer is read into again only once the client's socket has let go of the bytes read into it.
  const free = [];
  let next = free.pop() ?? Buffer.allocUnsafeSlow(READ_BYTES);
  const upstream = connect({
    port: Number(target.port),
    host: target.hostname,
    onread: {
      buffer: () => next,
      callback(n, buf) {
        const drained = client.write(buf.subarray(0, n), () => free.push(buf));
        next = free.pop() ?? Buffer.allocUnsafeSlow(READ_BYTES);
        if (drained) return true;
        client.once('drain', () => upstream.resume());
        return false;
      },
    },
  });
  client.pipe(upstream);
  upstream.on('end', () => client.end());
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
