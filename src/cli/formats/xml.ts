import { printable } from './text';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text for XML 1.0: markup characters as entities, and control characters (which XML cannot
 * hold even escaped) and lone surrogates written out as `\uXXXX`, like the text report does.
 */
export function xmlText(text: string): string {
  return printable(text, Infinity)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** `<name a="1">children</name>`, or `<name a="1"/>` with no children; attributes escaped. */
export function element(name: string, attributes: Record<string, string | number>, children: string[] = []): string {
  const attrs = Object.entries(attributes).map(([key, value]) => ` ${key}="${xmlText(String(value))}"`).join('');
  return children.length === 0 ? `<${name}${attrs}/>` : `<${name}${attrs}>${children.join('')}</${name}>`;
}

/** Element text made of lines: each line escaped, joined by newlines XML keeps. */
export const xmlLines = (lines: readonly string[]): string => lines.map(xmlText).join('\n');
