// A kept body gets memory of its own, of exactly its size. Node hands out a small
// Buffer as a view into a shared 8 KiB slab (Buffer.allocUnsafe's pool: Buffer.concat,
// Buffer.from of a string or base64 text under 4 KiB), and a request's body chunk as a
// view into the socket's read (up to 64 KiB). A view keeps all of its memory alive: an
// inbox keeping 1,000 captures of a few hundred bytes each kept up to 1,000 slabs of
// 8 KiB, ~10 times what the retention limits count (measured after the bench's soak:
// 397 slabs, 3.25 MB, holding 0.35 MB of bodies). Captures live for as long as their
// inbox keeps them, so theirs are copied once into buffers of their own.
/** Whether `buf` is the whole of its memory (nothing else is kept alive by it). */
export const ownsItsMemory = (buf: Buffer): boolean => buf.byteOffset === 0 && buf.buffer.byteLength === buf.length;

/** `chunks` joined into one buffer of exactly their size that owns its memory (not from the shared pool). */
export function joinOwned(chunks: readonly Buffer[]): Buffer {
  if (chunks.length === 1 && ownsItsMemory(chunks[0])) return chunks[0];
  let size = 0;
  for (const chunk of chunks) size += chunk.length;
  // Every byte is written below: nothing of the uninitialised memory is ever seen.
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const chunk of chunks) at += chunk.copy(out, at);
  return out;
}

/** `buf` itself if it owns its memory, else a copy of exactly its size that does. */
export const owned = (buf: Buffer): Buffer => (ownsItsMemory(buf) ? buf : joinOwned([buf]));
