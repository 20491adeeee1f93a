/** Reads the process's standard input whole, as UTF-8; undefined once it passes `max` bytes. */
export async function readStdin(max: number): Promise<string | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      process.stdin.destroy();
      return undefined;
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}
