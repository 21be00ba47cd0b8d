// A long text as UTF-8 in small buffers rather than one: a buffer of a few MB is a block
// glibc serves from its heap once its mmap threshold has grown, and every such block
// freed raises that threshold further (docs/benchmark.md, "Reading a run").

/** UTF-16 units a piece (at most 3 bytes each, so a piece stays under 64 KiB). */
const PIECE_CHARS = 16 * 1024;

/**
 * `text` cut into pieces of at most `chars` UTF-16 units, never inside a surrogate pair,
 * so each piece encodes on its own to exactly its part of the whole text's UTF-8 (for a
 * well-formed text, such as JSON.stringify's output).
 */
export function* textPieces(text: string, chars: number): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + chars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(at, end);
    at = end;
  }
}

/** `text`'s UTF-8 bytes in pieces (joined, exactly Buffer.from(text) for a well-formed text). */
export function utf8Pieces(text: string): Buffer[] {
  const pieces: Buffer[] = [];
  for (const piece of textPieces(text, PIECE_CHARS)) pieces.push(Buffer.from(piece, 'utf8'));
  return pieces;
}
