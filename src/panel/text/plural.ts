/** One formatter for every count: `toLocaleString` builds a new one on each call. */
const NUMBER = new Intl.NumberFormat('en');

/** A count with its thousands separated: `12,345`. */
export const count = (n: number): string => NUMBER.format(n);

/** `1 session`, `2 sessions`: a count and its noun, made plural by an s unless told otherwise. */
export const plural = (n: number, noun: string, many = `${noun}s`): string => `${NUMBER.format(n)} ${n === 1 ? noun : many}`;
