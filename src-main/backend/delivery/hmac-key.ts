// A webhook secret made ready to sign many deliveries: HMAC-SHA256 (RFC 2104) computed
// as two one-shot SHA-256 hashes over the key's inner and outer pads, which are worked
// out once per key. The same bytes as createHmac('sha256', key), which builds a native
// HMAC object per signature (an OpenSSL context, a JavaScript wrapper the garbage
// collector has to finalise): per delivery that cost about as much as hashing the body.
// A message is put together in one small shared buffer; a bigger one (a body past
// 16 KiB) goes through createHmac rather than a buffer of its size per signature.
import { createHmac, hash } from 'node:crypto';

const BLOCK = 64; // SHA-256's block size in bytes
const DIGEST = 32;

/** Where a message is put together after the inner pad: shared, as signing is synchronous. */
const scratch = Buffer.allocUnsafe(BLOCK + 16 * 1024);

export class HmacKey {
  private readonly key: Uint8Array;
  /** key ⊕ 0x36…, the start of every inner hash. */
  private readonly ipad: Buffer;
  /** key ⊕ 0x5c…, then room for the inner digest. */
  private readonly outer: Buffer;

  constructor(key: Uint8Array) {
    this.key = key;
    // A key longer than a block is hashed first (RFC 2104); a shorter one is padded with zeros.
    const k = key.length > BLOCK ? hash('sha256', key, 'buffer') : key;
    this.ipad = Buffer.alloc(BLOCK, 0x36);
    this.outer = Buffer.alloc(BLOCK + DIGEST, 0x5c);
    for (let i = 0; i < k.length; i++) {
      this.ipad[i] ^= k[i];
      this.outer[i] ^= k[i];
    }
  }

  /** The base64 HMAC-SHA256 of `text` (UTF-8) followed by `bytes`. */
  sign(text: string, bytes?: Uint8Array): string {
    // At most 3 bytes a UTF-16 unit in UTF-8: a bound that needs no count of the bytes first.
    const need = BLOCK + text.length * 3 + (bytes?.length ?? 0);
    // A big body is hashed where it is: copying it would allocate (and free) a buffer its size per signature.
    if (need > scratch.length && BLOCK + Buffer.byteLength(text, 'utf8') + (bytes?.length ?? 0) > scratch.length) {
      const h = createHmac('sha256', this.key).update(text);
      return (bytes ? h.update(bytes) : h).digest('base64');
    }
    // TypedArray#set rather than Buffer#copy: the same bytes without Buffer#copy's argument handling.
    scratch.set(this.ipad, 0);
    let n = BLOCK + scratch.write(text, BLOCK, 'utf8');
    if (bytes) {
      scratch.set(bytes, n);
      n += bytes.length;
    }
    this.outer.set(hash('sha256', scratch.subarray(0, n), 'buffer'), BLOCK);
    return hash('sha256', this.outer, 'base64');
  }
}
