// Which event bodies an attempt line may point to instead of holding its own copy
// (records.ts): the bodies of the events recorded most recently, with where their line
// is. An attempt sent soon after its event (nearly all of them) finds it here. A body
// pushed out of that window by later events (a backlog to one slow endpoint, thousands of
// events deep) is still known, without its text, in a fixed ring of its line's place,
// its length and the first 16 bytes of its SHA-256 (32 bytes an event, 2 MiB in all,
// allocated once): an attempt made well after its event points to it when its body has
// the same length and hash (each body's hash worked out once for the attempts that ask in
// turn, not once per attempt). Past both (a retry minutes on, after a restart), the attempt
// simply holds its body itself.
import { hash } from 'node:crypto';
import type { Loc, Segment } from './segments.js';
import { attemptBytes, type LineChange } from './attempt-bytes.js';
import type { BodyRef } from './compact.js';
import type { LineBytes } from './line-bytes.js';
import type { AttemptRecord } from '../history-types.js';
import { bodyField } from './body-codec.js';
import { systemBuffer } from './columns.js';

/** Recent events kept with their text: the events of a burst's waiting deliveries (25,000 at 50 subscriptions an event) when a segment rotates. */
const ENTRIES = 512;
const MAX_BYTES = 2 * 1024 * 1024;
const DIGEST = 16;
/** Digests of recent bodies kept, each of a body up to this many characters (what they hold is bounded). */
const DIGESTS_KEPT = 16;
const DIGEST_MEMO_CHARS = 64 * 1024;

/** Event lines known by place and hash, oldest overwritten first; in recording order, so sorted by (segment, offset). */
class HashedBodies {
  private readonly seg: Int32Array;
  private readonly off: Float64Array;
  private readonly length: Int32Array;
  private readonly digest: Uint8Array;
  private next = 0;
  private count = 0;
  private readonly digests = new Map<string, Buffer>();

  // Over buffers the system maps itself (columns.ts systemBuffer), not malloc'd: made while
  // the service works and let go at an idle release, a malloc'd ring would leave 2 MiB of
  // holes in glibc's heap (resident, as only its top is given back) and raise its mmap threshold.
  constructor(private readonly size: number) {
    this.seg = new Int32Array(systemBuffer(size * 4));
    this.off = new Float64Array(systemBuffer(size * 8));
    this.length = new Int32Array(systemBuffer(size * 4));
    this.digest = new Uint8Array(systemBuffer(size * DIGEST));
  }

  /** Its columns' bytes (allocated once, whole). */
  get bytes(): number {
    return this.size * (4 + 8 + 4 + DIGEST);
  }

  add(loc: Loc, body: string): void {
    const i = this.next;
    this.seg[i] = loc.seg.id;
    this.off[i] = loc.off;
    this.length[i] = body.length;
    this.digest.set(hash('sha256', body, 'buffer').subarray(0, DIGEST), i * DIGEST);
    this.next = (i + 1) % this.size;
    this.count = Math.min(this.count + 1, this.size);
  }

  /** Whether the event line at `loc` was added with exactly this body (same length and hash). */
  holds(loc: Loc, body: string): boolean {
    const i = this.find(loc.seg.id, loc.off);
    if (i < 0 || this.length[i] !== body.length) return false;
    const d = this.digestOf(body);
    for (let k = 0; k < DIGEST; k++) if (this.digest[i * DIGEST + k] !== d[k]) return false;
    return true;
  }

  /** The digest of `body`; the last few are kept, as each event's attempts (one per subscription) ask for the same body in turn. */
  private digestOf(body: string): Buffer {
    let d = this.digests.get(body);
    if (d === undefined) {
      d = hash('sha256', body, 'buffer');
      if (body.length > DIGEST_MEMO_CHARS) return d;
      if (this.digests.size >= DIGESTS_KEPT) this.digests.clear();
      this.digests.set(body, d);
    }
    return d;
  }

  /** The ring index of (seg, off), by binary search over the entries oldest to newest, or -1. */
  private find(seg: number, off: number): number {
    const first = (this.next - this.count + this.size) % this.size;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const i = (first + mid) % this.size;
      if (this.seg[i] < seg || (this.seg[i] === seg && this.off[i] < off)) lo = mid + 1;
      else hi = mid;
    }
    const i = (first + lo) % this.size;
    return lo < this.count && this.seg[i] === seg && this.off[i] === off ? i : -1;
  }
}

/** A recent event: its body, where its line is, and that line's body field. */
interface Recent {
  body: string;
  loc: Loc;
  field: string;
}

export class RecentBodies {
  private readonly map = new Map<string, Recent>();
  private chars = 0;
  /** Events pushed out of `map`, by place and hash (made at the first one: cleared, it is let go with its 2 MiB). */
  private hashed: HashedBodies | null = null;

  /** `eventLoc`: where an event's (latest) line is, from the index. */
  constructor(private readonly eventLoc: (eventId: string) => Loc | undefined) {}

  /**
   * The body field of an event line for `body` (body-codec.ts bodyField): the one its last
   * line has when that holds the same body. An event line is written again in a new
   * segment for the attempts still to come after a rotation (history-log.ts), hundreds of
   * events at once in a burst; each deflated its body again (tens of µs and a zlib handle each).
   */
  field(eventId: string, body: string): string {
    const e = this.map.get(eventId);
    return e && e.body === body ? e.field : bodyField(body);
  }

  remember(eventId: string, body: string, loc: Loc, field: string): void {
    const old = this.map.get(eventId);
    if (old) {
      this.chars -= old.body.length + old.field.length;
      this.map.delete(eventId);
    }
    if ((body.length + field.length) * 2 > MAX_BYTES) return;
    this.map.set(eventId, { body, loc, field });
    this.chars += body.length + field.length;
    while (this.map.size > ENTRIES || this.chars * 2 > MAX_BYTES) {
      const [id, first] = this.map.entries().next().value as [string, Recent];
      this.map.delete(id);
      this.chars -= first.body.length + first.field.length;
      (this.hashed ??= new HashedBodies(65_536)).add(first.loc, first.body);
    }
  }

  /** Where the event's line is (in any segment), if it is known to hold exactly `body`. */
  where(eventId: string, body: string): Loc | undefined {
    const e = this.map.get(eventId);
    if (e) return e.body === body ? e.loc : undefined;
    if (!this.hashed) return undefined;
    const loc = this.eventLoc(eventId);
    return loc && this.hashed.holds(loc, body) ? loc : undefined;
  }

  /** Where the event's line is, if it is in `seg` and holds exactly `body`. */
  find(eventId: string, body: string, seg: Segment): BodyRef | undefined {
    const loc = this.where(eventId, body);
    return loc && loc.seg === seg ? { off: loc.off, len: loc.len } : undefined;
  }

  /**
   * The line of an attempt of a delivery of `eventId` that will be appended to `seg` if it
   * fits (`seg` empty, or its size with the line within `limit`; a number, not a callback:
   * no closure per attempt): its request body a reference to the event's line when that
   * line is in `seg` with the same body, and this line goes there too (not if it starts a
   * new one).
   * Encoded by records.ts attemptBytes: good until the next line is encoded.
   */
  attemptLine(a: AttemptRecord, eventId: string, seg: Segment, limit: number, patch: LineChange = ''): LineBytes {
    const body = (a.request as AttemptRecord['request'] | undefined)?.body;
    const ref = typeof body === 'string' ? this.find(eventId, body, seg) : undefined;
    const line = attemptBytes(a, ref, patch);
    return !ref || seg.size === 0 || seg.size + line.n <= limit ? line : attemptBytes(a, undefined, patch);
  }

  /** What it holds now, in bytes: the recent texts (2 a character) and the ring once made; 0 once cleared. */
  get bytes(): number {
    return this.chars * 2 + (this.hashed?.bytes ?? 0);
  }

  /** Forgets every body (later attempts hold their own copy); what it held is let go. */
  clear(): void {
    this.map.clear();
    this.hashed = null;
    this.chars = 0;
  }
}
