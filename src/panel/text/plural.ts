/** `1 session`, `2 sessions`: a count and its noun, made plural by an s unless told otherwise. */
export const plural = (n: number, noun: string, many = `${noun}s`): string => `${n.toLocaleString('en')} ${n === 1 ? noun : many}`;
