import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random, URL-safe identifier with a type prefix: `doc_3hK9…` (22 base62 characters, ~131 bits). */
export function newId(prefix: string): string {
  const bytes = randomBytes(22);
  let out = prefix + '_';
  for (const b of bytes) out += ALPHABET[b % 62];
  return out;
}
