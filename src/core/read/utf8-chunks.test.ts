import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8Chunks } from './utf8-chunks';

const encoder = new TextEncoder();

/** Bytes of random text, ASCII-heavy as JSON is, with a BOM and invalid bytes now and then. */
const bodyBytes = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 4 }), fc.constantFrom('\uFEFF', 'é', '😀', '\x80', '\xFF')), { maxLength: 30 }))
  .map(([bom, parts]) => {
    const chunks = parts.map((part) => (part === '\x80' || part === '\xFF' ? new Uint8Array([part.charCodeAt(0)]) : encoder.encode(part)));
    const bytes = new Uint8Array([...(bom ? [0xef, 0xbb, 0xbf] : []), ...chunks.flatMap((c) => [...c])]);
    return bytes;
  });

describe('Utf8Chunks', () => {
  it('decodes any chunking exactly as one streaming TextDecoder, and is aligned only when positions agree', () => {
    fc.assert(
      fc.property(bodyBytes, fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
        const expected = new TextDecoder().decode(bytes);
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const decoder = new Utf8Chunks();
        let text = '';
        let from = 0;
        for (const to of [...points, bytes.length]) {
          const chunk = bytes.slice(from, to);
          const part = decoder.decode(chunk);
          // Aligned: every character is its byte, so any slice of the text is that slice's bytes.
          if (decoder.aligned) for (let i = 0; i < chunk.length; i++) expect(part.charCodeAt(i)).toBe(chunk[i]! < 0x80 ? chunk[i] : 0xfffd);
          text += part;
          from = to;
        }
        expect(text + decoder.end()).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes clean chunks in one shot, and still strips only the stream\'s first BOM', () => {
    const decoder = new Utf8Chunks();
    expect(decoder.decode(encoder.encode('\uFEFFdata: a\n'))).toBe('data: a\n');
    expect(decoder.aligned).toBe(false);
    expect(decoder.decode(encoder.encode('\uFEFFb\n'))).toBe('\uFEFFb\n');
    expect(decoder.decode(encoder.encode('plain ascii'))).toBe('plain ascii');
    expect(decoder.aligned).toBe(true);
  });
});
