import { parseArgs } from 'node:util';
import { isJsonPointer } from '../core';
import { parseListen, type ListenAddress } from '../proxy/listen-address';
import { parseTargets, type Target } from '../proxy/targets';

export interface ProxyArgs {
  targets: Target[];
  listen: ListenAddress;
  /** Where the live view listens; undefined with `--no-view`. */
  view: ListenAddress | undefined;
  har: string | undefined;
  appSeqPointers: string[];
  failOn: 'error' | 'warning';
  open: boolean;
  /** Seconds to run before stopping by itself. */
  duration: number | undefined;
  /** `record` only: the command to run, after `--`. */
  command: string[];
}

export const PROXY_USAGE = `usage: mcp-stream-lens proxy --target [NAME=]URL... [--listen HOST:PORT] [--har FILE] [--app-seq JSON-POINTER]...
                             [--fail-on error|warning] [--duration SECONDS] [--view HOST:PORT | --no-view] [--open]
       mcp-stream-lens record --target [NAME=]URL... [options as for proxy] -- COMMAND [ARG]...

proxy: a recording reverse proxy in front of MCP servers. Point your client at the URL it prints;
it analyses the streams live, prints each finding as it is found, serves the live view, and on
Ctrl-C (or after --duration) writes the HAR and prints the report as \`check\` does.
record: runs COMMAND with the proxy's URL in MCP_PROXY_URL, and stops when it exits.
Several --target NAME=URL are each served under /NAME. --listen defaults to 127.0.0.1:8808.
Exit codes: as check (0 no error finding, 1 error findings, 2 unusable arguments);
record exits with the command's code when that is worse.`;

/** Parses `proxy` / `record` arguments (after the subcommand); a string is a one-line usage error. */
export function parseProxyArgs(argv: readonly string[], mode: 'proxy' | 'record'): ProxyArgs | string {
  const dashes = argv.indexOf('--');
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const command = dashes === -1 ? [] : argv.slice(dashes + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...own],
      allowPositionals: false,
      options: {
        target: { type: 'string', multiple: true, default: [] },
        listen: { type: 'string', default: mode === 'proxy' ? '127.0.0.1:8808' : '127.0.0.1:0' },
        view: { type: 'string', default: '127.0.0.1:0' },
        'no-view': { type: 'boolean', default: false },
        har: { type: 'string' },
        'app-seq': { type: 'string', multiple: true, default: [] },
        'fail-on': { type: 'string', default: 'error' },
        duration: { type: 'string' },
        open: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values } = parsed;
  const targets = parseTargets(values.target);
  if (typeof targets === 'string') return targets;
  const listen = parseListen(values.listen, '--listen');
  if (typeof listen === 'string') return listen;
  const view = values['no-view'] ? undefined : parseListen(values.view, '--view');
  if (typeof view === 'string') return view;
  if (values['fail-on'] !== 'error' && values['fail-on'] !== 'warning') return `--fail-on must be error or warning, not ${values['fail-on']}`;
  const bad = values['app-seq'].find((pointer) => !isJsonPointer(pointer));
  if (bad !== undefined) return `--app-seq ${JSON.stringify(bad)} is not a JSON pointer (RFC 6901, like /params/data/seq)`;
  let duration: number | undefined;
  if (values.duration !== undefined) {
    duration = Number(values.duration);
    if (!Number.isFinite(duration) || duration <= 0) return `--duration must be a number of seconds above 0, not ${JSON.stringify(values.duration)}`;
  }
  if (mode === 'record' && command.length === 0) return 'record needs a command after --';
  if (mode === 'proxy' && dashes !== -1) return 'proxy runs no command; use record -- COMMAND';
  if (values.open && !view) return '--open needs the live view (drop --no-view)';
  return { targets, listen, view, har: values.har, appSeqPointers: values['app-seq'], failOn: values['fail-on'], open: values.open, duration, command };
}
