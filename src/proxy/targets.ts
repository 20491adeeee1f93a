/** One upstream MCP server and the path prefix it is reached under on the proxy. */
export interface Target {
  /** The name from `--target name=URL`, or '' for a single unnamed target. */
  name: string;
  /** `/name`, or '' for a single unnamed target (every path goes to it). */
  prefix: string;
  /** The target as given: its origin receives the requests, its path is what clients ask for. */
  url: URL;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/**
 * Parses the `--target` values: one bare `URL`, or any number of `name=URL`, each then served
 * under `/name`. A string is a one-line usage error.
 */
export function parseTargets(specs: readonly string[]): Target[] | string {
  if (specs.length === 0) return 'proxy needs --target URL (or --target name=URL, repeated)';
  const targets: Target[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const named = eq > 0 && !spec.slice(0, eq).includes(':');
    const name = named ? spec.slice(0, eq) : '';
    const text = named ? spec.slice(eq + 1) : spec;
    if (named && !NAME.test(name)) return `--target name ${JSON.stringify(name)} must be letters, digits, - or _`;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return `--target ${JSON.stringify(text)} is not a URL`;
    }
    if (url.protocol !== 'http:') return `--target ${JSON.stringify(text)}: only http:// targets are proxied (put TLS in front of the proxy, not behind it)`;
    if (url.username || url.password) return `--target ${JSON.stringify(text)}: credentials in the URL would be recorded; pass them as headers from the client`;
    targets.push({ name, prefix: named ? `/${name}` : '', url });
  }
  if (targets.length > 1 && targets.some((t) => t.name === '')) return 'with several --target values, name each one: --target name=URL';
  const names = new Set(targets.map((t) => t.name));
  if (names.size !== targets.length) return 'two --target values have the same name';
  return targets;
}

/** Which target a request path belongs to, and the path to ask it for. */
export function route(targets: readonly Target[], path: string): { target: Target; upstreamPath: string } | undefined {
  for (const target of targets) {
    if (target.prefix === '') return { target, upstreamPath: path };
    if (path === target.prefix) return { target, upstreamPath: '/' };
    const next = path[target.prefix.length];
    if (path.startsWith(target.prefix) && (next === '/' || next === '?')) {
      const rest = path.slice(target.prefix.length);
      return { target, upstreamPath: rest.startsWith('?') ? `/${rest}` : rest };
    }
  }
  return undefined;
}

/** The URL a client uses for `target` through a proxy at `origin`. */
export function clientUrl(origin: string, target: Target): string {
  return `${origin}${target.prefix}${target.url.pathname}${target.url.search}`;
}
