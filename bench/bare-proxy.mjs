// The floor for the proxy's throughput: the least a Node process can do to pass the stream on, a
// TCP byte pipe (no HTTP, no recording, no analysis) that reads into reused buffers, run by plain
// node in a process of its own, as `mcp-stream-lens proxy` is. Reused buffers, because Node's
// default of a fresh buffer per read costs more here than the rest of the forwarding (a pipe()
// proxy, or one made of node:http's request and pipe, reaches far less). Prints its origin on
// stdout once it listens.
//
// With --record it also does the least any recording proxy must: each read's bytes are copied
// into a reused stage, written to an unlinked file a megabyte at a time (as the proxy's spool
// does), and the read's arrival time and place are kept.
//
//   node bench/bare-proxy.mjs http://127.0.0.1:PORT [--record]
import { mkdtempSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const target = new URL(process.argv[2] ?? '');
const READ_BYTES = 64 * 1024;

/** Keeps each read's bytes in an unlinked file and its time and place in memory; returns the recorder. */
function openRecording() {
  const folder = mkdtempSync(join(tmpdir(), 'bare-proxy-'));
  const path = join(folder, 'recording');
  const fd = openSync(path, 'wx+', 0o600);
  unlinkSync(path);
  rmdirSync(folder);
  const stage = Buffer.allocUnsafeSlow(1024 * 1024);
  const chunks = [];
  let staged = 0;
  let written = 0;
  return (buf, n) => {
    if (staged + n > stage.length) {
      for (let done = 0; done < staged; ) done += writeSync(fd, stage, done, staged - done, written + done);
      written += staged;
      staged = 0;
    }
    buf.copy(stage, staged, 0, n);
    chunks.push({ time: performance.now(), at: written + staged, length: n });
    staged += n;
  };
}
const record = process.argv.includes('--record') ? openRecording() : undefined;

const server = createServer((client) => {
  // A buffer is read into again only once the client's socket has let go of the bytes read into it.
  const free = [];
  let next = Buffer.allocUnsafeSlow(READ_BYTES);
  const upstream = connect({
    port: Number(target.port),
    host: target.hostname,
    onread: {
      buffer: () => next,
      callback(n, buf) {
        record?.(buf, n);
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
