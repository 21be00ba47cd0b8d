// Which event bodies an attempt line may point to instead of holding its own copy
// (records.ts): the bodies of the events recorded most recently, with where their line
// is. An attempt sent soon after its event (nearly all of them) finds it here; a later
// one (a retry minutes on, after a restart) simply holds its body itself.
import type { Loc, Segment } from './segments.js';
import { attemptLine, type BodyRef } from './records.js';
import type { AttemptRecord } from '../history-types.js';

const ENTRIES = 256;
const MAX_BYTES = 2 * 1024 * 1024;

export class RecentBodies {
  private readonly map = new Map<string, { body: string; loc: Loc }>();
  private chars = 0;

  remember(eventId: string, body: string, loc: Loc): void {
    const old = this.map.get(eventId);
    if (old) {
      this.chars -= old.body.length;
      this.map.delete(eventId);
    }
    if (body.length * 2 > MAX_BYTES) return;
    this.map.set(eventId, { body, loc });
    this.chars += body.length;
    while (this.map.size > ENTRIES || this.chars * 2 > MAX_BYTES) {
      const [id, first] = this.map.entries().next().value as [string, { body: string; loc: Loc }];
      this.map.delete(id);
      this.chars -= first.body.length;
    }
  }

  /** Where the event's line is, if it is in `seg` and holds exactly `body`. */
  find(eventId: string, body: string, seg: Segment): BodyRef | undefined {
    const e = this.map.get(eventId);
    return e && e.loc.seg === seg && e.body === body ? { off: e.loc.off, len: e.loc.len } : undefined;
  }

  /**
   * The line of an attempt of a delivery of `eventId` that will be appended to `seg` if
   * `fits(bytes)`: its request body a reference to the event's line when that line is in
   * `seg` with the same body, and this line goes there too (not if it starts a new one).
   */
  attemptLine(a: AttemptRecord, eventId: string, seg: Segment, fits: (bytes: number) => boolean): string {
    const body = (a.request as AttemptRecord['request'] | undefined)?.body;
    const ref = typeof body === 'string' ? this.find(eventId, body, seg) : undefined;
    const line = attemptLine(a, ref);
    return ref && !fits(Buffer.byteLength(line)) ? attemptLine(a) : line;
  }

  clear(): void {
    this.map.clear();
    this.chars = 0;
  }
}
