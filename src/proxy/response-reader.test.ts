import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReadBuffers } from './read-buffers';
import { MAX_RESPONSE_HEAD_BYTES } from './caps';
import { createResponseReader, type ResponseHead } from './response-reader';

/**
 * Feeds `wire` to a reader in reads of the given sizes, each copied into one buffer that the
 * next read overwrites (as the proxy's reused read buffers are), and collects what it gives.
 */
function readAll(wire: Buffer, sizes: number[], method = 'GET'): { head?: ResponseHead; body: Buffer; done: boolean; eof: boolean; broken?: string } {
  const reader = createResponseReader({ method });
  const buf = Buffer.alloc(Math.max(1, ...sizes, wire.length));
  const parts: Buffer[] = [];
  let head: ResponseHead | undefined;
  let done = false;
  let broken: string | undefined;
  let at = 0;
  for (let i = 0; at < wire.length && !done && broken === undefined; i += 1) {
    const n = Math.min(sizes[i % sizes.length] ?? wire.length, wire.length - at);
    wire.copy(buf, 0, at, at + n);
    buf.fill(0xee, n); // what a reused buffer holds past the read
    at += n;
    const got = reader.read(buf, n);
    head ??= got.head;
    parts.push(Buffer.from(buf.subarray(got.start, got.end)));
    done = got.done;
    broken = got.broken;
  }
  return { head, body: Buffer.concat(parts), done, eof: done || reader.eof(), ...(broken !== undefined && { broken }) };
}

const chunked = (pieces: Buffer[], options: { extension?: boolean; trailer?: boolean } = {}) =>
  Buffer.concat([
    ...pieces.filter((p) => p.length > 0).flatMap((p) => [Buffer.from(`${p.length.toString(16)}${options.extension ? ';x=1' : ''}\r\n`), p, Buffer.from('\r\n')]),
    Buffer.from(`0\r\n${options.trailer ? 'x-checksum: 1\r\n' : ''}\r\n`),
  ]);
const HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nX-Spelled: As Sent\r\ntransfer-encoding: chunked\r\n\r\n';

describe('the response reader', () => {
  it('gives back every body byte of a chunked response however its bytes are split into reads', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        (pieces, sizes, extension, trailer) => {
          const body = pieces.map((p) => Buffer.from(p));
          const got = readAll(Buffer.concat([Buffer.from(HEAD), chunked(body, { extension, trailer })]), sizes);
          expect(got.body).toEqual(Buffer.concat(body));
          expect(got.done).toBe(true);
          expect(got.head?.headers).toContainEqual(['X-Spelled', 'As Sent']);
        },
      ),
    );
  });

  it('takes a Content-Length body to its length, and a body with no framing to the connection’s end', () => {
    const sized = readAll(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello and more'), [4]);
    expect([sized.body.toString(), sized.done]).toEqual(['hello', true]);
    const open = readAll(Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the end'), [3]);
    expect([open.body.toString(), open.done, open.eof]).toEqual(['until the end', false, true]);
  });

  it('skips informational heads, and reads no body for HEAD, 204 and 304', () => {
    const got = readAll(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'), [7]);
    expect([got.head?.status, got.head?.statusText, got.body.toString()]).toEqual([200, 'OK', 'ok']);
    expect(readAll(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n'), [64], 'HEAD')).toMatchObject({ done: true, body: Buffer.alloc(0) });
    expect(readAll(Buffer.from('HTTP/1.1 204 No Content\r\n\r\n'), [64])).toMatchObject({ done: true });
  });

  it('says a chunked body that stops early did not end', () => {
    const wire = Buffer.concat([Buffer.from(HEAD), chunked([Buffer.from('abc')]).subarray(0, 6)]);
    expect(readAll(wire, [5])).toMatchObject({ done: false, eof: false, body: Buffer.from('abc') });
  });

  it.each([
    ['not HTTP at all', 'SSH-2.0-OpenSSH\r\n\r\n', /not an HTTP\/1.1 status line/],
    ['a header line with no name', 'HTTP/1.1 200 OK\r\n: x\r\n\r\n', /invalid header line/],
    ['a header value with a control character', 'HTTP/1.1 200 OK\r\nx: a\u0001b\r\n\r\n', /invalid header line/],
    ['two Content-Lengths', 'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n', /invalid Content-Length/],
    ['a switch of protocols', 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n', /switched protocols/],
  ])('refuses %s with a plain reason', (_, wire, reason) => {
    expect(() => readAll(Buffer.from(wire, 'latin1'), [7])).toThrow(reason);
  });

  it.each([
    ['a chunk size that is not hex', '2\r\nab\r\nzz\r\n', 'ab', /chunk size is missing/],
    ['a chunk longer than its size', '2\r\nab\r\n2\r\nabc\r\n', 'abab', /longer than its size/],
    ['a huge chunk size', '2\r\nab\r\nffffffffffffff\r\n', 'ab', /too large/],
  ])('gives a chunked body up to %s, and says why it stopped there', (_, body, before, reason) => {
    const got = readAll(Buffer.from(HEAD + body), [9]);
    expect(got.head?.status).toBe(200);
    expect(got.body.toString()).toBe(before);
    expect(got.broken).toMatch(reason);
    expect(got.done).toBe(false);
  });

  it('refuses a head over its cap rather than holding it', () => {
    const endless = Buffer.from(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(MAX_RESPONSE_HEAD_BYTES)}`);
    expect(() => readAll(endless, [4096])).toThrow(/over \d+ bytes/);
  });
});

describe('the read buffers', () => {
  it('hands a buffer out again only once its read is handled and every write holding it called back', () => {
    const buffers = createReadBuffers();
    const first = buffers.next();
    const release = buffers.hold(first);
    buffers.done(first);
    const second = buffers.next();
    expect(second).not.toBe(first);
    release();
    release(); // a second call changes nothing
    buffers.done(second);
    const again = [buffers.next(), buffers.next()];
    expect(again).toContain(first);
    expect(again).toContain(second);
  });
});
