import type { Progress } from './har-file';

/** Files smaller than this are read before a progress line would be worth its flicker. */
export const PROGRESS_MIN_BYTES = 50 * 1024 * 1024;
/** The line is redrawn at most this often. */
const REDRAW_MS = 200;

/** Where progress goes: a terminal's stream (process.stderr), which may or may not be a TTY. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * A progress line for reading `file`, redrawn in place on `stream`, or undefined when none is
 * shown: for files under {@link PROGRESS_MIN_BYTES}, and, unless `asked` (`--progress`), where
 * the stream is no terminal or a CI runner sets `CI`, so CI logs never fill with it.
 */
export function progressLine(file: string, size: number, stream: ProgressStream, asked: boolean, env: Record<string, string | undefined>): { update: Progress; end(): void } | undefined {
  if (size < PROGRESS_MIN_BYTES) return undefined;
  if (!asked && (!stream.isTTY || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false'))) return undefined;
  // A terminal gets one line redrawn in place; a stream that is no terminal (asked for) gets lines.
  const redraw = stream.isTTY === true;
  let shown = -Infinity;
  let lastPercent = -1;
  const draw = (read: number, total: number) => {
    const percent = total > 0 ? Math.floor((100 * read) / total) : 100;
    if (!redraw && percent === lastPercent) return;
    lastPercent = percent;
    const text = `mcp-stream-lens: reading ${file}: ${percent}% (${mib(read)} of ${mib(total)})`;
    stream.write(redraw ? `\r\x1b[K${text}` : `${text}\n`);
  };
  return {
    update(read, total) {
      const now = performance.now();
      if (now - shown < REDRAW_MS && read < total) return;
      shown = now;
      draw(read, total);
    },
    end() {
      if (redraw && shown !== -Infinity) stream.write('\r\x1b[K');
    },
  };
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
