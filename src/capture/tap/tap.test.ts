import { describe, expect, it } from 'vitest';
import { isTapBatch, isTapHello, isTapLost, isTapPort, make, type Message, type TapItem } from '../../shared/messages';
import { installTap } from './install';

/** Lets every pending promise reaction run (no timers involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A window with just what the tap touches; `fetch` answers with a stream the test controls. */
function fakeWindow(responseHeaders: Record<string, string> = { 'content-type': 'text/event-stream' }) {
  const target = new EventTarget();
  const posted: Message[] = [];
  const timers: (() => void)[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let sourceCancelled: unknown = null;
  let last: Response | null = null;
  const original = async () =>
    (last = new Response(
      new ReadableStream<Uint8Array>({
        start: (c) => void (controller = c),
        cancel: (reason) => void (sourceCancelled = reason ?? 'cancelled'),
      }),
      { status: 200, headers: responseHeaders },
    ));
  class FakeXhr {
    open() {}
    send() {}
    setRequestHeader() {}
  }
  // The tap's private channel: what it posts on its port lands in `posted`, cloned (and its
  // transfer list moved) as a real port would.
  const transferred: ArrayBuffer[] = [];
  class FakePort {
    onmessage: ((e: { data: unknown }) => void) | null = null;
    postMessage(m: Message, options: { transfer?: ArrayBuffer[] } = {}) {
      const transfer = options.transfer ?? [];
      transferred.push(...transfer);
      posted.push(structuredClone(m, { transfer }));
    }
  }
  let tapEnd!: FakePort;
  class FakeChannel {
    port1 = (tapEnd = new FakePort());
    port2 = new FakePort();
  }
  const onWindow: { message: unknown; transfer: unknown[] }[] = [];
  const win = Object.assign(target, {
    fetch: original,
    EventSource: undefined,
    XMLHttpRequest: FakeXhr,
    TextDecoder,
    Response,
    Request,
    ReadableStream,
    Headers,
    ArrayBuffer,
    Uint8Array,
    setTimeout: (fn: () => void) => void timers.push(fn),
    location: { origin: 'http://127.0.0.1', href: 'http://127.0.0.1/' },
    MessageChannel: FakeChannel,
    MessagePort: FakePort,
    postMessage: (message: unknown, _origin: string, transfer: unknown[] = []) => void onWindow.push({ message, transfer }),
  }) as unknown as Window & typeof globalThis;
  installTap(win);
  const attach = () => tapEnd.onmessage!({ data: make('relay-attach', { attached: true }) });
  const items = (): TapItem[] => {
    timers.splice(0).forEach((fn) => fn());
    return posted.filter(isTapBatch).flatMap((b) => b.items);
  };
  /** Runs the timers due now; returns how many ran. */
  const runTimers = () => {
    const due = timers.splice(0);
    due.forEach((fn) => fn());
    return due.length;
  };
  return { win, last: () => last, posted, transferred, onWindow, attach, items, runTimers, send: (text: string) => controller.enqueue(new TextEncoder().encode(text)), controller: () => controller, sourceCancelled: () => sourceCancelled };
}

const MCP = { headers: { 'mcp-session-id': 's1', accept: 'text/event-stream' } };

describe('page tap', () => {
  it('leaves non-MCP requests alone: the very same response, nothing posted', async () => {
    const page = fakeWindow({ 'content-type': 'application/json' });
    const response = await page.win.fetch('/data.json', { method: 'POST', body: '{"hello":1}' });
    expect(response).toBe(page.last());
    expect(page.posted).toEqual([]);
  });

  it('records an MCP stream chunk by chunk while the page reads it, and how it ended', async () => {
    const page = fakeWindow();
    page.attach();
    const response = await page.win.fetch('/mcp', MCP);
    const text = response.text();
    page.send('id: 1\ndata: {"jsonrpc":"2.0","method":"x"}\n\n');
    await settle();
    page.send('id: 2\n');
    page.controller().close();
    expect(await text).toBe('id: 1\ndata: {"jsonrpc":"2.0","method":"x"}\n\nid: 2\n');
    await settle();
    const items = page.items();
    expect(items.map((i) => i.kind)).toEqual(['open', 'response', 'chunk', 'chunk', 'end']);
    expect(items[0]).toMatchObject({ kind: 'open', api: 'fetch', request: { method: 'GET', url: 'http://127.0.0.1/mcp' } });
    expect(items.at(-1)).toMatchObject({ kind: 'end', end: { state: 'complete' } });
  });

  it('cancels its own branch when the page cancels, and records the cancellation', async () => {
    const page = fakeWindow();
    page.attach();
    const response = await page.win.fetch('/mcp', MCP);
    const reader = response.body!.getReader();
    page.send('data: 1\n\n');
    await reader.read();
    await reader.cancel('page is done');
    await settle();
    // The body itself is cancelled, so the connection closes.
    expect(page.sourceCancelled()).toBe('page is done');
    expect(page.items().at(-1)).toMatchObject({ kind: 'end', end: { state: 'cancelled' } });
  });

  it('hands the page its chunks as they came, and keeps its own copy of them, attached or not', async () => {
    for (const attachFirst of [true, false]) {
      const page = fakeWindow();
      if (attachFirst) page.attach();
      const response = await page.win.fetch('/mcp', MCP);
      const reader = response.body!.getReader();
      const sent = new TextEncoder().encode('data: 1\n\n');
      page.controller().enqueue(sent);
      const { value } = await reader.read();
      expect(value).toBe(sent);
      // A page may reuse or transfer what it read; the capture keeps what arrived.
      value!.fill(0);
      page.controller().enqueue(new TextEncoder().encode('data: 2\n\n'));
      const second = (await reader.read()).value!;
      structuredClone(second, { transfer: [second.buffer] });
      page.controller().enqueue(new TextEncoder().encode('data: 3\n\n'));
      const third = (await reader.read()).value!;
      await settle();
      if (!attachFirst) page.attach();
      const chunks = page.items().flatMap((i) => (i.kind === 'chunk' ? [new TextDecoder().decode(i.data as Uint8Array)] : []));
      expect(chunks).toEqual(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']);
      // Attached, the tap moves its own copies to the relay; what the page holds stays the page's.
      expect(page.transferred.length).toBe(attachFirst ? 3 : 0);
      expect(page.transferred).not.toContain(sent.buffer);
      expect(page.transferred).not.toContain(third.buffer);
      expect(new TextDecoder().decode(third)).toBe('data: 3\n\n');
    }
  });

  it('records a reset with its error, keeping the bytes that arrived before it', async () => {
    const page = fakeWindow();
    page.attach();
    const response = await page.win.fetch('/mcp', MCP);
    const reader = response.body!.getReader();
    page.send('id: 7\ndata: {"jsonrpc":"2.0","meth');
    await reader.read();
    await settle();
    page.controller().error(new TypeError('network error'));
    await expect(reader.read()).rejects.toThrow('network error');
    await settle();
    const items = page.items();
    expect(items.filter((i) => i.kind === 'chunk')).toHaveLength(1);
    expect(items.at(-1)).toMatchObject({ kind: 'end', end: { state: 'reset', error: 'TypeError: network error' } });
  });

  it('holds captures until a panel attaches, posting only an empty hello', async () => {
    const page = fakeWindow();
    const response = await page.win.fetch('/mcp', MCP);
    page.send('data: 1\n\n');
    page.controller().close();
    await response.text();
    await settle();
    expect(page.items()).toEqual([]);
    expect(page.posted).toHaveLength(1);
    expect(isTapHello(page.posted[0])).toBe(true);
    page.attach();
    expect(page.items().map((i) => i.kind)).toEqual(['open', 'response', 'chunk', 'end']);
  });

  it('recognises a legacy HTTP+SSE stream by its endpoint event, and ignores other event streams', async () => {
    const legacy = fakeWindow();
    legacy.attach();
    const a = await legacy.win.fetch('/sse', { headers: { accept: 'text/event-stream' } });
    const textA = a.text();
    legacy.send('event: endpoint\ndata: /messages?sessionId=1\n\n');
    legacy.controller().close();
    await textA;
    await settle();
    expect(legacy.items().map((i) => i.kind)).toEqual(['open', 'response', 'chunk', 'end']);

    const other = fakeWindow();
    other.attach();
    const b = await other.win.fetch('/ticks', { headers: { accept: 'text/event-stream' } });
    const textB = b.text();
    other.send('data: tick\n\n');
    await settle();
    other.send('data: tock\n\n');
    other.controller().close();
    expect(await textB).toBe('data: tick\n\ndata: tock\n\n');
    await settle();
    expect(other.posted).toEqual([]);
  });

  it('posts one message on the window in all: its port to the relay, with no data', async () => {
    const page = fakeWindow();
    page.attach();
    await page.win.fetch('/mcp', MCP);
    await settle();
    page.items();
    expect(page.onWindow).toHaveLength(1);
    expect(isTapPort(page.onWindow[0]!.message)).toBe(true);
    expect(Object.keys(page.onWindow[0]!.message as object).sort()).toEqual(['source', 'type', 'v']);
    expect(page.onWindow[0]!.transfer).toHaveLength(1);
  });
});

describe('page tap: a page that takes an API away', () => {
  const losses = (posted: Message[]) => posted.filter(isTapLost).map((m) => m.api);

  it('reports a replaced fetch once, on its next check while a panel is attached', () => {
    const page = fakeWindow();
    page.attach();
    page.runTimers();
    expect(losses(page.posted)).toEqual([]);
    page.win.fetch = (async () => new Response('')) as typeof fetch;
    page.runTimers();
    page.runTimers();
    expect(losses(page.posted)).toEqual(['fetch']);
    expect(page.posted.find(isTapLost)!.time).toBeGreaterThan(0);
  });

  it('notices a fetch frozen behind a getter, and a replaced XMLHttpRequest.prototype.send', () => {
    const page = fakeWindow();
    page.attach();
    const mine = page.win.fetch;
    Object.defineProperty(page.win, 'fetch', { get: () => mine, configurable: false });
    page.win.XMLHttpRequest.prototype.send = function send() {};
    page.runTimers();
    expect(losses(page.posted).sort()).toEqual(['fetch', 'xhr']);
  });

  it('holds a loss noticed while no panel is attached, and posts it on attach', async () => {
    const page = fakeWindow();
    const response = await page.win.fetch('/mcp', MCP); // a capture: now there is something to lose
    page.controller().close();
    await response.text();
    await settle();
    page.win.fetch = (async () => new Response('')) as typeof fetch;
    page.runTimers();
    expect(page.posted.filter((m) => !isTapHello(m))).toEqual([]);
    page.attach();
    expect(losses(page.posted)).toEqual(['fetch']);
  });

  it('runs no timer at all on a page without MCP traffic and without a panel', async () => {
    const page = fakeWindow({ 'content-type': 'application/json' });
    await page.win.fetch('/data.json');
    page.win.fetch = (async () => new Response('')) as typeof fetch;
    let runs = 0;
    for (let i = 0; i < 3; i += 1) runs += page.runTimers();
    expect(runs).toBe(0);
    expect(page.posted).toEqual([]);
  });
});
