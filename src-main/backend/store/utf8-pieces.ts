// A long text as UTF-8 in small buffers rather than one: a buffer of a few MB is a block
// glibc serves from its heap once its mmap threshold has grown, and every such block
// freed raises that threshold further (docs/benchmark.md, "Reading a run").

/** UTF-16 units a piece (at most 3 bytes each, so a piece stays under 64 KiB). */
const PIECE_CHARS = 16 * 1024;

/**
 * `text`'s UTF-8 bytes in pieces, never splitting a surrogate pair (for a well-formed
 * text, such as JSON.stringify's output, the pieces joined are exactly Buffer.from(text)).
 */
export function utf8Pieces(text: string): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(Buffer.from(text.slice(at, end), 'utf8'));
    at = end;
  }
  return pieces;
}
