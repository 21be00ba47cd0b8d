import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_CHARS = 22;
/**
 * Random bytes come from the OS in blocks of ~180 ids rather than one call per id: an
 * event fanned out to 50 subscriptions makes 51 ids, and the per-call cost of
 * randomBytes was a visible share of delivering it. Every byte is used once.
 */
const pool = Buffer.alloc(ID_CHARS * 186);
let used = pool.length;

/** A random, URL-safe identifier with a type prefix: `doc_3hK9…` (22 base62 characters, ~131 bits). */
export function newId(prefix: string): string {
  if (used + ID_CHARS > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let out = prefix + '_';
  for (let i = used; i < used + ID_CHARS; i++) out += ALPHABET[pool[i] % 62];
  used += ID_CHARS;
  return out;
}
