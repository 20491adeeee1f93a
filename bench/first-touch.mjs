// Why the proxy's recording keeps its bytes in a file (src/proxy/spool.ts): what keeping bytes
// costs per MB on this machine, each way, in one process. Run it in a fresh process, since
// memory the process already touched and freed is cheap again.
//
//   node bench/first-touch.mjs
//
// - fresh memory: 64 KB buffers kept, as a recording that keeps each chunk it was handed;
// - touched memory: the same bytes copied into memory already touched once;
// - a file: the same bytes written to an unlinked file, in writes of 1 KB (a server that writes an
//   event at a time), 64 KB (a socket read) and 1 MB (the spool's stage).
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MB = 1024 * 1024;
const TOTAL = 100 * MB;
const perMb = (ms) => `${(ms / (TOTAL / MB)).toFixed(2)} ms/MB`;

function keptFresh() {
  const piece = Buffer.alloc(64 * 1024, 1);
  const kept = [];
  const t0 = performance.now();
  for (let n = 0; n < TOTAL; n += piece.length) {
    const copy = Buffer.allocUnsafeSlow(piece.length);
    piece.copy(copy);
    kept.push(copy);
  }
  return performance.now() - t0;
}

function copiedIntoTouched() {
  const piece = Buffer.alloc(64 * 1024, 1);
  const into = new Uint8Array(TOTAL).fill(0);
  const t0 = performance.now();
  for (let n = 0; n < TOTAL; n += piece.length) into.set(piece, n);
  return performance.now() - t0;
}

function written(size) {
  const dir = mkdtempSync(join(tmpdir(), 'first-touch-'));
  const fd = openSync(join(dir, 'file'), 'wx+', 0o600);
  unlinkSync(join(dir, 'file'));
  const piece = Buffer.alloc(size, 1);
  const t0 = performance.now();
  for (let n = 0; n < TOTAL; n += size) writeSync(fd, piece, 0, size, n);
  const ms = performance.now() - t0;
  closeSync(fd);
  rmSync(dir, { recursive: true });
  return ms;
}

// Fresh memory first, while the process has touched little.
console.log(`kept in fresh memory (64 KB buffers): ${perMb(keptFresh())}`);
console.log(`copied into touched memory:           ${perMb(copiedIntoTouched())}`);
for (const [label, size] of [['1 KB', 1024], ['64 KB', 64 * 1024], ['1 MB', MB]]) console.log(`written to a file, ${label} writes:`.padEnd(38) + perMb(written(size)));
