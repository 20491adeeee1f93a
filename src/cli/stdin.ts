import type { Stdin } from './har-file';

/** The process's standard input, for `-`. */
export const processStdin: Stdin = () => process.stdin as AsyncIterable<Uint8Array>;
