import { describe, expect, it } from 'vitest';
import { isDevtoolsHello, make, type Message } from './messages';
import { createPortClient, MAX_FAILED_HANDSHAKES, type PortLike } from './port-client';

/** A fake background: records what each port got; the test decides when it welcomes or dies. */
function fakeBackground() {
  const ports: { got: unknown[]; welcome(): void; die(): void }[] = [];
  const connect = (): PortLike => {
    const onMessage = new Set<(m: unknown) => void>();
    const onDisconnect = new Set<() => void>();
    const entry = {
      got: [] as unknown[],
      welcome: () => onMessage.forEach((fn) => fn(make('bg-welcome', { worker: `w${ports.length}` }))),
      die: () => onDisconnect.forEach((fn) => fn()),
    };
    ports.push(entry);
    return {
      postMessage: (m) => void entry.got.push(m),
      disconnect: () => undefined,
      onMessage: { addListener: (fn) => void onMessage.add(fn) },
      onDisconnect: { addListener: (fn) => void onDisconnect.add(fn) },
    };
  };
  return { ports, connect };
}

const msg = (n: number): Message => make('relay-status', { relay: 'r', counters: { sent: n, rejected: 0, tapDropped: 0 } });

describe('port client', () => {
  it('holds messages until the welcome, then sends them in order', () => {
    const bg = fakeBackground();
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 10, onMessage: () => undefined, eager: false });
    client.send(msg(1));
    client.send(msg(2));
    expect(bg.ports[0]!.got).toHaveLength(1);
    expect(isDevtoolsHello(bg.ports[0]!.got[0])).toBe(true);
    bg.ports[0]!.welcome();
    expect(bg.ports[0]!.got.slice(1)).toEqual([msg(1), msg(2)]);
  });

  it('reconnects when the worker dies and caps the queue meanwhile, counting what it drops', () => {
    const bg = fakeBackground();
    const dropped: Message[] = [];
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 2, onMessage: () => undefined, onDrop: (m) => void dropped.push(m), eager: true });
    client.start();
    bg.ports[0]!.welcome();
    bg.ports[0]!.die();
    expect(bg.ports).toHaveLength(2); // eager: reconnected at once
    for (const n of [1, 2, 3]) client.send(msg(n));
    expect(dropped).toEqual([msg(1)]);
    bg.ports[1]!.welcome();
    expect(bg.ports[1]!.got.slice(1)).toEqual([msg(2), msg(3)]);
  });

  it('a lazy client does not reconnect until it has something to send', () => {
    const bg = fakeBackground();
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 2, onMessage: () => undefined, eager: false });
    client.send(msg(1));
    bg.ports[0]!.welcome();
    bg.ports[0]!.die();
    expect(bg.ports).toHaveLength(1);
    client.send(msg(2));
    expect(bg.ports).toHaveLength(2);
  });

  it('gives up after repeated failed handshakes instead of looping', () => {
    const bg = fakeBackground();
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 2, onMessage: () => undefined, eager: true });
    client.start();
    for (let i = 0; i < MAX_FAILED_HANDSHAKES + 3 && bg.ports[i]; i += 1) bg.ports[i]!.die();
    expect(bg.ports).toHaveLength(MAX_FAILED_HANDSHAKES);
  });

  it('sends its last messages again after a reconnect, before the queue, keeping only the newest', () => {
    const bg = fakeBackground();
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 10, maxReplay: 2, onMessage: () => undefined, eager: false });
    client.send(msg(1));
    bg.ports[0]!.welcome();
    client.send(msg(2));
    client.send(msg(3));
    // The worker died with 2 and 3 perhaps unread; 4 was sent after the client knew.
    bg.ports[0]!.die();
    client.send(msg(4));
    bg.ports[1]!.welcome();
    expect(bg.ports[1]!.got.slice(1)).toEqual([msg(2), msg(3), msg(4)]);
  });

  it('replays only the newest messages that fit the size cap, and none larger than it', () => {
    const bg = fakeBackground();
    // Each test message weighs its number.
    const sizeOf = (m: Message) => (m.type === 'relay-status' ? m.counters.sent : 0);
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 10, maxReplay: 10, maxReplaySize: 5, sizeOf, onMessage: () => undefined, eager: false });
    client.send(msg(1));
    bg.ports[0]!.welcome();
    for (const n of [2, 3]) client.send(msg(n));
    // 1 + 2 + 3 is over 5: 1 left the window. Each reconnect below needs a message to send (lazy).
    bg.ports[0]!.die();
    client.send(msg(4));
    bg.ports[1]!.welcome();
    expect(bg.ports[1]!.got.slice(1)).toEqual([msg(2), msg(3), msg(4)]);
    // 2 + 3 + 4 is over 5: only 4 is kept. 9 is over the cap on its own: sent, and not kept.
    bg.ports[1]!.die();
    client.send(msg(9));
    bg.ports[2]!.welcome();
    expect(bg.ports[2]!.got.slice(1)).toEqual([msg(4), msg(9)]);
    bg.ports[2]!.die();
    client.send(msg(1));
    bg.ports[3]!.welcome();
    expect(bg.ports[3]!.got.slice(1)).toEqual([msg(1)]);
  });

  it('drops the oldest held messages past the queue size cap, counting each, and keeps the newest', () => {
    const bg = fakeBackground();
    const sizeOf = (m: Message) => (m.type === 'relay-status' ? m.counters.sent : 0);
    const dropped: Message[] = [];
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 10, maxQueueSize: 5, sizeOf, onDrop: (m) => void dropped.push(m), onMessage: () => undefined, eager: false });
    for (const n of [1, 2, 3, 9]) client.send(msg(n));
    // 1 + 2 + 3 is over 5, so 1 goes; 9 then pushes out 2 and 3, and stays though over the cap alone.
    expect(dropped).toEqual([msg(1), msg(2), msg(3)]);
    bg.ports[0]!.welcome();
    expect(bg.ports[0]!.got.slice(1)).toEqual([msg(9)]);
  });

  it('replays nothing without maxReplay (a panel must not repeat its control messages)', () => {
    const bg = fakeBackground();
    const client = createPortClient({ connect: bg.connect, hello: () => make('devtools-hello', { tabId: 1 }), maxQueue: 10, onMessage: () => undefined, eager: true });
    client.start();
    bg.ports[0]!.welcome();
    client.send(msg(1));
    bg.ports[0]!.die();
    bg.ports[1]!.welcome();
    expect(bg.ports[1]!.got.slice(1)).toEqual([]);
  });
});
