import { main, type Io } from '../../src/cli/main';

/** Runs the CLI's main() in-process, collecting what it prints. */
export async function runCli(argv: readonly string[], io: Partial<Io> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { ...io, stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`) });
  return { code, out, err };
}
