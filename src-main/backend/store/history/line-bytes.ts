// A history line encoded straight into bytes (records.ts, attempt-bytes.ts): one buffer,
// reused line after line, that the writer copies into its slab (writer.ts appendBytes).
// An attempt line built as JS strings (a few dozen pieces joined, then flattened, then
// encoded into the slab) allocated ~3 KB of short-lived strings per delivery, the most
// of anything on the delivery path; written here it allocates nothing. Every method
// writes exactly the UTF-8 of what JSON.stringify (or String) would give for the value.

/** JSON strings up to this long are checked and copied char by char; longer ones go through the native UTF-8 encoder. */
const SHORT = 64;
/** Integers below this are written digit by digit (String() gives the same digits; from 1e21 on it switches to exponents). */
const DIGITS_BELOW = 1e15;

/** The one-letter escapes of control characters (\b \t \n \f \r); 0 where JSON writes \u00XX. */
const ESCAPES = new Uint8Array(0x20);
ESCAPES[0x08] = 0x62;
ESCAPES[0x09] = 0x74;
ESCAPES[0x0a] = 0x6e;
ESCAPES[0x0c] = 0x66;
ESCAPES[0x0d] = 0x72;
const HEX = Buffer.from('0123456789abcdef');

export class LineBytes {
  buf: Buffer;
  /** Bytes written so far. */
  n = 0;

  constructor(size = 16 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }

  reset(): this {
    this.n = 0;
    return this;
  }

  /** What was written, as text (for the callers that want a string line). */
  text(): string {
    return this.buf.toString('utf8', 0, this.n);
  }

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.n + k));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  byte(c: number): void {
    this.room(1);
    this.buf[this.n++] = c;
  }

  /** Text known to be ASCII (the format's own syntax: keys, brackets, digits). */
  ascii(s: string): void {
    this.room(s.length);
    const { buf } = this;
    let n = this.n;
    for (let i = 0; i < s.length; i++) buf[n++] = s.charCodeAt(i);
    this.n = n;
  }

  /** Any text, in UTF-8 (JSON made elsewhere, a patch). */
  utf8(s: string): void {
    if (s.length <= SHORT && this.tryAscii(s, 0)) return;
    this.room(s.length * 3);
    this.n += this.buf.write(s, this.n, 'utf8');
  }

  /** Writes s[from..] if it is all ASCII; else writes nothing and says so. */
  private tryAscii(s: string, from: number): boolean {
    this.room(s.length - from);
    const { buf } = this;
    let n = this.n;
    for (let i = from; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return false;
      buf[n++] = c;
    }
    this.n = n;
    return true;
  }

  /** JSON.stringify(s) of a string. */
  str(s: string): void {
    if (s.length > SHORT) return this.utf8(JSON.stringify(s));
    this.room(s.length * 6 + 2);
    const { buf } = this;
    const start = this.n;
    let n = start;
    buf[n++] = 0x22;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && c < 0x80) buf[n++] = c;
      else if (c >= 0x80) {
        // Not ASCII (a lone surrogate is escaped, a pair is not): JSON.stringify's own text.
        this.n = start;
        return this.utf8(JSON.stringify(s));
      } else {
        buf[n++] = 0x5c;
        const short = c === 0x22 || c === 0x5c ? c : ESCAPES[c];
        if (short !== 0) buf[n++] = short;
        else {
          buf[n++] = 0x75; // \u00XX, in lower case as JSON.stringify writes it
          buf[n++] = 0x30;
          buf[n++] = 0x30;
          buf[n++] = HEX[c >> 4];
          buf[n++] = HEX[c & 15];
        }
      }
    }
    buf[n++] = 0x22;
    this.n = n;
  }

  /** The JSON text of a finite number (String(v); "0" for -0). */
  num(v: number): void {
    if (!Number.isInteger(v) || v >= DIGITS_BELOW || v <= -DIGITS_BELOW) return this.ascii(String(v));
    this.room(17);
    if (v < 0) {
      this.buf[this.n++] = 0x2d;
      v = -v;
    }
    let digits = 1;
    for (let p = 10; p <= v; p *= 10) digits++;
    const { buf } = this;
    let i = this.n + digits;
    this.n = i;
    do {
      const q = Math.floor(v / 10);
      buf[--i] = 0x30 + (v - q * 10);
      v = q;
    } while (v > 0);
  }

  /** JSON of null or a finite number. */
  numOrNull(v: number | null): void {
    if (v === null) this.ascii('null');
    else this.num(v);
  }

  /** JSON of null or a string. */
  strOrNull(s: string | null): void {
    if (s === null) this.ascii('null');
    else this.str(s);
  }

  bool(b: boolean): void {
    this.ascii(b ? 'true' : 'false');
  }

  /** Bytes already encoded. */
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }
}

/** Views kept per source buffer (one per line length met: a few hundred in practice). */
const MAX_VIEWS = 2048;

/**
 * The first `n` bytes of a buffer as a view, kept by length for the buffer last asked
 * about (the shared line buffer): the writer copies each line into its slab through one
 * (writer.ts), where Buffer.copy made a new view of every line it copied.
 */
export class HeadViews {
  private src: Buffer | null = null;
  private readonly views = new Map<number, Uint8Array>();

  of(src: Buffer, n: number): Uint8Array {
    if (src !== this.src) {
      this.src = src;
      this.views.clear();
    }
    let view = this.views.get(n);
    if (view === undefined) {
      view = new Uint8Array(src.buffer, src.byteOffset, n);
      if (this.views.size < MAX_VIEWS) this.views.set(n, view);
    }
    return view;
  }
}
