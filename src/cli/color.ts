/** The few styles the text report uses. */
export type Style = 'red' | 'yellow' | 'green' | 'dim' | 'bold';
export type Paint = (style: Style, text: string) => string;

const CODES: Record<Style, [number, number]> = { red: [31, 39], yellow: [33, 39], green: [32, 39], dim: [2, 22], bold: [1, 22] };

export const plain: Paint = (_style, text) => text;
export const ansi: Paint = (style, text) => `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m`;

/**
 * Colour on a terminal, the conventions' way: FORCE_COLOR (other than 0) forces it, as Node
 * does, over NO_COLOR (any non-empty value), which turns it off; otherwise a TTY that is not
 * `TERM=dumb` gets it.
 */
export function wantsColor(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}
