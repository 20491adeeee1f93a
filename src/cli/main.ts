import { USAGE } from './args';
import { runCheck } from './check';
import { closest } from './closest';
import type { Io } from './io';
import { packageVersion } from './version';
import { runProxyCommand } from './proxy-command';

export type { Io } from './io';

/** Each subcommand: its arguments (after its name) to an exit code. */
type Command = (argv: readonly string[], io: Io) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  check: runCheck,
  proxy: (argv, io) => runProxyCommand(argv, io, 'proxy'),
  record: (argv, io) => runProxyCommand(argv, io, 'record'),
};

/** Runs the CLI; resolves to the exit code. Never throws for bad input. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  // The proxy's commands read their own --help, and `record -- COMMAND` hands the rest to COMMAND.
  if (argv[0] === 'proxy' || argv[0] === 'record') return COMMANDS[argv[0]]!(argv.slice(1), io);
  if (argv.includes('--version') || argv.includes('-V')) {
    io.stdout(packageVersion());
    return 0;
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(USAGE);
    return 0;
  }
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    const near = name === undefined ? undefined : closest(name, Object.keys(COMMANDS));
    const why = name === undefined ? 'missing command: check' : `unknown command ${JSON.stringify(name)}${near ? `; did you mean ${near}?` : ''}`;
    io.stderr(`mcp-stream-lens: ${why}\n${USAGE}`);
    return 2;
  }
  return command(rest, io);
}
