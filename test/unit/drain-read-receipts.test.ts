import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createExchangeLog } from '../../demo/lb/exchange';
import { forward } from '../../demo/lb/proxy';
import { createReadReceipts, MAX_RECEIPT_CALLS, progressOf } from '../../demo/lb/read-receipts';

// The demo balancer's drain cuts a stream only once the page says it read what was passed: a
// browser discards the body bytes a page had not read when the body fails, so an early cut on a
// busy page loses events the recording shows as delivered.

const event = (n: number) => `id: ${n}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${n}}}\n\n`;

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  closers.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('read receipts', () => {
  it('lets a wait go once the call has read that far, and never waits for a call that does not tell', async () => {
    const receipts = createReadReceipts();
    await receipts.read(undefined, 5);
    await receipts.read('silent', 5);

    receipts.note('k', 0);
    let done = false;
    const waiting = receipts.read('k', 5).then(() => (done = true));
    receipts.note('k', 4);
    await Promise.resolve();
    expect(done).toBe(false);
    receipts.note('k', 6);
    await waiting;
    expect(done).toBe(true);
    receipts.note('k', 2); // late and out of order: what was read stays read
    await receipts.read('k', 6);
  });

  it('forgets the oldest call past its cap, and lets its waits go', async () => {
    const receipts = createReadReceipts();
    receipts.note('first', 0);
    const waiting = receipts.read('first', 1);
    for (let i = 0; i < MAX_RECEIPT_CALLS; i += 1) receipts.note(`k${i}`, 0);
    await waiting;
  });

  it('reads the progress of a progress notification only', () => {
    expect(progressOf('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":7}}')).toBe(7);
    expect(progressOf('{"jsonrpc":"2.0","id":1,"result":{"progress":7}}')).toBeUndefined();
    expect(progressOf('not json')).toBeUndefined();
    expect(progressOf('null')).toBeUndefined();
  });
});

describe('a drain with read receipts', () => {
  it('holds the cut until the client has read the last event passed, then cuts before the next', async () => {
    let write!: (text: string) => void;
    const upstream = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      write = (text) => void res.write(text);
      for (let n = 1; n <= 3; n += 1) write(event(n));
    });

    const log = createExchangeLog();
    let lb!: ServerResponse;
    let asked!: (progress: number) => void;
    const cutDue = new Promise<number>((resolve) => (asked = resolve));
    let readNow!: () => void;
    const lbUrl = await listen((req, res) => {
      lb = res;
      const exchange = log.start({ method: 'GET', url: req.url ?? '/', httpVersion: 'HTTP/1.1', headers: [], body: Buffer.alloc(0) });
      forward(exchange, res, log, {
        upstream: `${upstream}/mcp`,
        drainAfterEvents: 3,
        readBeforeCut(progress) {
          asked(progress);
          return new Promise((resolve) => (readNow = resolve));
        },
      });
    });

    let received = '';
    const closed = new Promise<void>((resolve, reject) => {
      const req = get(lbUrl, (res) => {
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          received += text;
          if (received.includes('id: 3\n')) write(event(4)); // the event the drain holds back and cuts on
        });
        res.on('close', resolve);
      });
      req.on('error', reject);
    });

    expect(await cutDue).toBe(3);
    // The cut is due, but the client has not said it read event 3: the connection stays open.
    expect(lb.socket?.writableEnded).toBe(false);
    expect(log.all()[0]?.end).toBe('open');

    readNow();
    await closed;
    expect(log.all()[0]?.end).toBe('cut');
    expect(received).toBe(event(1) + event(2) + event(3));
  });
});
