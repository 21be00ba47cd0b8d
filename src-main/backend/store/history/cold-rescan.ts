// The cold fields of a closed segment's deliveries (cold-rows.ts) when its sidecar cannot
// be read back (deleted or damaged since it was written): the segment itself is read, as
// writeSidecar does (sidecar.ts), with the start-up loader over an index of its own, and
// its sidecar's rows made from that index (sidecar-build.ts sidecarOf): row for row what
// the sidecar held, since a sidecar taken from memory and one made by scanning are the
// same to the byte. Synchronous, like the read it stands in for; a rare case (the next
// start reports the damage and writes the sidecar again), so its cost (a read of up to
// 32 MiB, ~0.5 s) is accepted.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { coldSourceOf } from './cold-source.js';
import type { ColdSource } from './cold-rows.js';
import { HistoryIndex } from './index-state.js';
import { Loader } from './loader.js';
import { scanLine } from './records.js';
import { newSegment, type Segment } from './segments.js';
import { sidecarOf, touchedDelivery, unpacked } from './sidecar-build.js';

/** The cold fields of the deliveries based in `seg`, read from the segment file (throws if it cannot be read). */
export function coldFromSegment(seg: Segment): ColdSource {
  const buf = readFileSync(seg.path);
  const own = new HistoryIndex(true);
  const mine = newSegment(dirname(seg.path), seg.id, false);
  own.segs.set(mine.id, mine);
  const loader = new Loader(own);
  for (let start = 0; start < buf.length;) {
    const nl = buf.indexOf(10, start);
    if (nl < 0) break;
    const rec = nl > start ? scanLine(buf, start, nl) : null;
    if (rec) {
      const id = touchedDelivery(rec);
      if (id === undefined || own.d.slot(id) !== undefined) loader.apply(mine, rec, { seg: mine, off: start, len: nl - start });
    }
    start = nl + 1;
  }
  const live: number[] = [];
  for (let s = 0; s < own.d.end; s++) if (own.d.isLive(s)) live.push(s);
  return coldSourceOf(
    unpacked(sidecarOf(own, live, [], { segBytes: buf.length, created: 0, nextDeliverySeq: 0, nextEventSeq: 0, foreign: [] })),
  );
}
