/**
 * A failure the demo explains in one line (a port in use, a missing browser), as opposed to a
 * bug. The launcher prints its message alone, without a stack, and shuts down cleanly.
 */
export class DemoError extends Error {
  override name = 'DemoError';
}

/** One line for any failure: the message of a DemoError, else the error's own first line. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
