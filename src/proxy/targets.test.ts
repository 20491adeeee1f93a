import { describe, expect, it } from 'vitest';
import { isLoopback, parseListen } from './listen-address';
import { clientUrl, parseTargets, route, type Target } from './targets';

describe('--target', () => {
  it('serves one bare target at every path, and named ones under their prefixes', () => {
    const [one] = parseTargets(['http://127.0.0.1:3000/mcp']) as Target[];
    expect(route([one!], '/mcp?x=1')).toEqual({ target: one, upstreamPath: '/mcp?x=1' });
    expect(clientUrl('http://127.0.0.1:8808', one!)).toBe('http://127.0.0.1:8808/mcp');

    const named = parseTargets(['a=http://127.0.0.1:1/mcp', 'b=http://127.0.0.1:2/sse']) as Target[];
    expect(route(named, '/b/messages?sessionId=s')).toEqual({ target: named[1], upstreamPath: '/messages?sessionId=s' });
    expect(route(named, '/a')?.upstreamPath).toBe('/');
    expect(route(named, '/ab/mcp')).toBeUndefined();
    expect(route(named, '/c/mcp')).toBeUndefined();
    expect(clientUrl('http://127.0.0.1:8808', named[1]!)).toBe('http://127.0.0.1:8808/b/sse');
  });

  it.each([
    [[], /needs --target/],
    [['not a url'], /not a URL/],
    [['https://x/mcp'], /only http/],
    [['http://user:pw@x/mcp'], /credentials/],
    [['http://a/', 'http://b/'], /name each one/],
    [['a=http://a/', 'a=http://b/'], /same name/],
    [['a b=http://a/'], /must be letters/],
  ])('refuses %j', (specs, reason) => {
    expect(parseTargets(specs)).toMatch(reason);
  });
});

describe('--listen', () => {
  it('reads host:port, [v6]:port and a bare port', () => {
    expect(parseListen('127.0.0.1:8808', '--listen')).toEqual({ host: '127.0.0.1', port: 8808 });
    expect(parseListen('[::1]:0', '--listen')).toEqual({ host: '::1', port: 0 });
    expect(parseListen('9000', '--listen')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(parseListen('0.0.0.0:99999', '--listen')).toMatch(/over 65535/);
    expect(parseListen('nope', '--listen')).toMatch(/HOST:PORT/);
  });

  it('knows loopback from the rest', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2'].some(isLoopback)).toBe(false);
  });
});
