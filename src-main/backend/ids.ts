import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CODES = Buffer.from(ALPHABET, 'latin1');
const ID_CHARS = 22;
/** Prefixes are a few letters (`msg`, `whsec`); longer ones still work, through a bigger buffer. */
const SCRATCH_BYTES = 64;
/**
 * Random bytes come from the OS in blocks of ~180 ids rather than one call per id: an
 * event fanned out to 50 subscriptions makes 51 ids, and the per-call cost of
 * randomBytes was a visible share of delivering it. Every byte is used once.
 */
const pool = Buffer.alloc(ID_CHARS * 186);
let used = pool.length;
const scratch = Buffer.alloc(SCRATCH_BYTES);

/**
 * A random, URL-safe identifier with a type prefix: `doc_3hK9…` (22 base62 characters, ~131 bits).
 * Written into a buffer and read out as one string: built with `+=` a character at a time,
 * V8 kept an id as a chain of 22 string pieces (~440 bytes, 10x the id) for as long as the id
 * lived, and every pending delivery's id lives until it ends.
 */
export function newId(prefix: string): string {
  if (used + ID_CHARS > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const length = prefix.length + 1 + ID_CHARS;
  const out = length <= SCRATCH_BYTES ? scratch : Buffer.alloc(length);
  // The prefix a character at a time (Latin-1, as write() would): a native write() call cost more than these few stores.
  const p = prefix.length;
  for (let i = 0; i < p; i++) out[i] = prefix.charCodeAt(i);
  out[p] = 0x5f; // _
  for (let k = 0; k < ID_CHARS; k++) out[p + 1 + k] = CODES[pool[used + k] % 62];
  used += ID_CHARS;
  return out.toString('latin1', 0, length);
}
