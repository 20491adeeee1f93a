import { isIP } from 'node:net';

/** Where a server listens. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** Parses `HOST:PORT`, `[IPv6]:PORT`, `:PORT` or `PORT` (host 127.0.0.1). A string is a usage error. */
export function parseListen(text: string, flag: string): ListenAddress | string {
  const bare = /^\d{1,5}$/.test(text);
  const match = bare ? [text, undefined, '', text] : /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text);
  if (!match) return `${flag} ${JSON.stringify(text)} must be HOST:PORT (like 127.0.0.1:8808)`;
  const port = Number(match[3]);
  if (port > 65_535) return `${flag} port ${port} is over 65535`;
  const host = match[1] ?? (match[2] || '127.0.0.1');
  if (match[1] !== undefined && isIP(host) !== 6) return `${flag} ${JSON.stringify(text)}: ${host} is not an IPv6 address`;
  return { host, port };
}

/** Whether `host` is reachable only from this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `host:port` as it appears in a URL (IPv6 in brackets). */
export function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}
