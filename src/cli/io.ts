import type { Analyse } from './analysis';
import type { Stdin } from './har-file';
import type { ProgressStream } from './progress';

/** What the CLI needs from its process: output lines, the environment, standard input. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The environment (`GITHUB_STEP_SUMMARY`); none when left out. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Colour the text report (run.ts decides: a TTY, NO_COLOR, FORCE_COLOR). */
  color?: boolean;
  /** Standard input, for `-`; the process's when left out. */
  stdin?: Stdin;
  /** Where reading progress may go (the process's stderr); none when left out. */
  progress?: ProgressStream;
  /** How a file is analysed: in this thread when left out (run.ts moves large files to a worker). */
  analyse?: Analyse;
}
