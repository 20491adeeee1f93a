import { MAX_RESPONSE_HEAD_BYTES } from './caps';
import type { RawHeaders } from './headers';

/** The longest chunk-size or trailer line of a chunked body. */
const MAX_FRAMING_LINE_BYTES = 4 * 1024;

export interface ResponseHead {
  status: number;
  statusText: string;
  /** In wire order and spelling. */
  headers: RawHeaders;
}

/** What one read's bytes held. */
export interface ReadResult {
  /** The final (non-1xx) response head, on the read that completed it. */
  head?: ResponseHead;
  /**
   * The body bytes this read held, framing removed: `buf[start, end)`. The chunked framing is
   * taken out in place, so the body stays in the read's own buffer and is never copied elsewhere.
   */
  start: number;
  end: number;
  /** The body is complete: nothing after it belongs to this response. */
  done: boolean;
  /** The body's framing broke after `end`: why (the bytes before it are good). */
  broken?: string;
}

/**
 * Reads an HTTP/1.1 response from the bytes of its connection, read by read: the head, then the
 * body with its framing (chunked, `Content-Length`, or up to the connection's close) taken off.
 * Informational (1xx) heads are skipped. Throws a plain-worded Error on a head that is not
 * HTTP; a body whose framing breaks is given up to the break, and `broken` says why.
 *
 * The proxy forwards through this rather than Node's HTTP client because that client reads every
 * chunk into a fresh buffer; reusing the read buffers makes forwarding several times cheaper.
 */
export interface ResponseReader {
  /** Reads `buf[0, n)`, which it may rewrite (the body is moved down over its framing). */
  read(buf: Uint8Array, n: number): ReadResult;
  /** The connection ended (FIN): whether that completes the body, as it does when nothing frames it. */
  eof(): boolean;
}

type Chunked = { kind: 'chunked'; state: 'size' | 'size-line' | 'data' | 'data-cr' | 'data-lf' | 'trailer'; size: number; left: number; line: number; digits: number };
type Body =
  | { kind: 'none' }
  | { kind: 'length'; left: number }
  | { kind: 'close' }
  | Chunked;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// What Node lets a header value hold (it refuses to send anything else).
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const STATUS_LINE = /^HTTP\/1\.[01] ([1-9]\d{2})(?: ([\t\x20-\x7e\x80-\xff]*))?$/;

export function createResponseReader(request: { method: string }): ResponseReader {
  /** Head bytes read so far, copied: the read buffers are reused. */
  let headBytes: Buffer | undefined;
  let body: Body | undefined;
  let finished = false;
  let brokenBy: string | undefined;

  const parseHead = (text: string): ResponseHead => {
    const lines = text.split('\r\n');
    const status = STATUS_LINE.exec(lines[0] ?? '');
    if (!status) throw new Error(`the target's answer is not an HTTP/1.1 status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
    const headers: RawHeaders = [];
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      if (colon <= 0 || !TOKEN.test(name) || !VALUE.test(value)) throw new Error(`the target sent an invalid header line: ${JSON.stringify(line.slice(0, 80))}`);
      headers.push([name, value]);
    }
    return { status: Number(status[1]), statusText: status[2] ?? '', headers };
  };

  const framingOf = (head: ResponseHead): Body => {
    if (request.method === 'HEAD' || head.status === 204 || head.status === 304) return { kind: 'none' };
    const values = (name: string) => head.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
    const codings = values('transfer-encoding').join(',').split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
    if (codings.length > 0) return codings.at(-1) === 'chunked' ? { kind: 'chunked', state: 'size', size: 0, left: 0, line: 0, digits: 0 } : { kind: 'close' };
    const lengths = [...new Set(values('content-length').flatMap((v) => v.split(',').map((x) => x.trim())))];
    if (lengths.length === 0) return { kind: 'close' };
    if (lengths.length > 1 || !/^\d{1,15}$/.test(lengths[0]!)) throw new Error(`the target sent an invalid Content-Length: ${JSON.stringify(lengths.join(', ').slice(0, 80))}`);
    const left = Number(lengths[0]);
    return left === 0 ? { kind: 'none' } : { kind: 'length', left };
  };

  const readBody = (buf: Uint8Array, from: number, n: number): { start: number; end: number; broken?: string } => {
    const b = body!;
    if (finished || b.kind === 'none') return { start: from, end: from };
    if (b.kind === 'close') return { start: from, end: n };
    if (b.kind === 'length') {
      const take = Math.min(b.left, n - from);
      b.left -= take;
      finished = b.left === 0;
      return { start: from, end: from + take };
    }
    if (brokenBy !== undefined) return { start: from, end: from, broken: brokenBy };
    const got = unchunk(b, buf, from, n);
    finished = got.finished;
    brokenBy = got.broken;
    return { start: from, end: got.end, ...(got.broken !== undefined && { broken: got.broken }) };
  };

  return {
    read(buf, n) {
      if (body) return { ...readBody(buf, 0, n), done: finished };
      let from = 0;
      let head: ResponseHead | undefined;
      while (!head) {
        const bytes = Buffer.from(buf.buffer, buf.byteOffset + from, n - from);
        const known = headBytes?.length ?? 0;
        const all = headBytes ? Buffer.concat([headBytes, bytes]) : bytes;
        const blank = all.indexOf('\r\n\r\n');
        if (blank > MAX_RESPONSE_HEAD_BYTES || (blank < 0 && all.length > MAX_RESPONSE_HEAD_BYTES)) throw new Error(`the target's response head is over ${MAX_RESPONSE_HEAD_BYTES} bytes`);
        if (blank < 0) {
          headBytes = Buffer.from(all); // a copy: `buf` is reused once this read is done
          return { start: n, end: n, done: false };
        }
        headBytes = undefined;
        from += blank + 4 - known;
        const parsed = parseHead(all.toString('latin1', 0, blank));
        if (parsed.status === 101) throw new Error('the target switched protocols (101), which the proxy does not forward');
        if (parsed.status >= 200) head = parsed;
      }
      body = framingOf(head);
      if (body.kind === 'none') finished = true;
      return { head, ...readBody(buf, from, n), done: finished };
    },
    eof() {
      if (body?.kind === 'close') finished = true;
      return finished;
    },
  };
}

/**
 * Takes the chunked framing out of `buf[from, n)` in place, moving each chunk's bytes down over
 * the framing before it: the body ends up at `buf[from, end)`. `c` carries the state across reads.
 */
function unchunk(c: Chunked, buf: Uint8Array, from: number, n: number): { end: number; finished: boolean; broken?: string } {
  let out = from;
  let i = from;
  const bad = (what: string) => ({ end: out, finished: false, broken: `the target's chunked body is invalid: ${what}` });
  while (i < n) {
    switch (c.state) {
      case 'data': {
        const take = Math.min(c.left, n - i);
        if (out !== i) buf.copyWithin(out, i, i + take);
        out += take;
        i += take;
        c.left -= take;
        if (c.left === 0) c.state = 'data-cr';
        break;
      }
      case 'data-cr':
        if (buf[i] === 0x0d) c.state = 'data-lf';
        else if (buf[i] === 0x0a) c.state = 'size';
        else return bad('a chunk is longer than its size says');
        i += 1;
        break;
      case 'data-lf':
        if (buf[i] !== 0x0a) return bad('a chunk does not end with CRLF');
        c.state = 'size';
        i += 1;
        break;
      case 'size': {
        const byte = buf[i]!;
        const lower = byte | 0x20;
        const digit = byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
        if (digit >= 0) {
          if (++c.digits > 12) return bad('a chunk size is too large');
          c.size = c.size * 16 + digit;
          i += 1;
        } else if (c.digits === 0) return bad('a chunk size is missing');
        else c.state = 'size-line';
        break;
      }
      case 'size-line':
        // Extensions and whitespace up to the line's end are ignored, as every reader does.
        if (++c.line > MAX_FRAMING_LINE_BYTES) return bad('a chunk-size line is too long');
        if (buf[i++] !== 0x0a) break;
        c.line = 0;
        if (c.size === 0) c.state = 'trailer';
        else (c.left = c.size), (c.state = 'data');
        c.size = 0;
        c.digits = 0;
        break;
      case 'trailer': {
        // Trailer fields, then an empty line: only the empty line matters here.
        const byte = buf[i++];
        if (byte === 0x0a) {
          if (c.line === 0) return { end: out, finished: true };
          c.line = 0;
        } else if ((byte !== 0x0d || c.line > 0) && ++c.line > MAX_FRAMING_LINE_BYTES) return bad('a trailer line is too long');
        break;
      }
    }
  }
  return { end: out, finished: false };
}
