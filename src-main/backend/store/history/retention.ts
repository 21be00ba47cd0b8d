// Retention, exactly. A delivery's *base* record is its first summary (or a carried
// copy, below); all its later records follow it in the log. Kept, after open or at any
// time: every delivery whose base record is in a segment on disk, with all its attempts,
// and every event whose latest record is in a segment on disk. A new segment starts
// past `segmentBytes` (32 MiB) or after `segmentDeliveries` (cap / 8) new deliveries.
// Whenever more than `cap` deliveries are indexed, the oldest segment (never the one
// being appended to) is dropped, repeatedly, until at most `cap` remain or only the
// current segment is left. Dropping a segment:
//   1. each delivery based in it whose status is still 'pending' is carried: its current
//      summary and every one of its attempts are appended to the current segment as one
//      new base record (same sequence number; one line, so a crash never leaves half);
//   2. every other delivery based in it leaves the index (with its attempts, wherever
//      they are; records of it in newer segments are ignored at the next open);
//   3. each event recorded in it that a kept delivery still refers to is carried (its
//      record, body included, re-appended); the others leave the index;
//   4. the current segment is fsynced, then the old file is deleted.
// So pending deliveries, their attempts and their events (with bodies) are never
// dropped, and the order of deliveries and events survives carrying and restarts.
//
// Dropping the oldest segment of the history log, by the rules above: pending deliveries and the events kept deliveries still need are carried into
// the current segment first, the copies are made durable, and only then is the old
// file deleted, so a crash at any point loses nothing that had to be kept.
import { unlink } from 'node:fs/promises';
import { carriedDeliveryLine } from './records.js';
import { readAttempts, type Loc, type Segment } from './segments.js';
import type { DeliveryEntry, EventEntry, HistoryIndex } from './index-state.js';

export interface RetentionHost {
  readonly idx: HistoryIndex;
  append(line: string): Loc;
  read(locs: Loc[]): Promise<(string | undefined)[]>;
  flush(): Promise<void>;
}

const BATCH = 64;

/** Empties `seg` of index entries (carrying what must stay), then deletes its file. */
export async function dropSegment(host: RetentionHost, seg: Segment): Promise<void> {
  const { idx } = host;
  for (;;) {
    // Each pass ends in a synchronous check, so nothing can change between it and the drop.
    const pending = [...seg.deliveries].filter((id) => idx.deliveries.get(id)?.v.status === 'pending');
    if (pending.length > 0) {
      await inBatches(pending, (id) => carryDelivery(host, seg, id));
      continue;
    }
    const leaving: DeliveryEntry[] = [];
    for (const id of seg.deliveries) {
      const e = idx.deliveries.get(id);
      if (!e) continue;
      leaving.push(e);
      idx.ref(e.v.event_id, -1);
    }
    idx.removeDeliveries(leaving);
    seg.deliveries.clear();
    const referenced = [...seg.events].filter((id) => idx.eventRefs.has(id));
    if (referenced.length > 0) {
      await inBatches(referenced, (id) => carryEvent(host, seg, id));
      continue;
    }
    idx.removeEvents([...seg.events].map((id) => idx.events.get(id)).filter((e): e is EventEntry => e !== undefined));
    seg.events.clear();
    break;
  }
  await host.flush(); // the carried copies are durable before the originals go
  try {
    await unlink(seg.path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

async function inBatches(ids: string[], fn: (id: string) => Promise<void>): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) await Promise.all(ids.slice(i, i + BATCH).map(fn));
}

/** Re-appends a pending delivery (summary + every attempt, one line) unless it changed meanwhile. */
async function carryDelivery(host: RetentionHost, seg: Segment, id: string): Promise<void> {
  const { idx } = host;
  for (;;) {
    const e = idx.deliveries.get(id);
    if (!e || e.seg !== seg || e.v.status !== 'pending') return;
    const locs = e.attempts.slice();
    const attempts = await readAttempts(locs, (l) => host.read(l));
    // Synchronous from here on: nothing can be appended between the check and the copy.
    if (idx.deliveries.get(id) !== e || e.seg !== seg || e.v.status !== 'pending') return;
    if (e.attempts.length !== locs.length || e.attempts.some((l, i) => l !== locs[i])) continue; // an attempt arrived: read again
    const loc = host.append(carriedDeliveryLine(e.seq, e.v, attempts));
    seg.deliveries.delete(id);
    e.seg = loc.seg;
    loc.seg.deliveries.add(id);
    e.attempts = attempts.map((_, i) => ({ ...loc, item: i }));
    return;
  }
}

async function carryEvent(host: RetentionHost, seg: Segment, id: string): Promise<void> {
  const e = host.idx.events.get(id);
  if (!e || e.loc.seg !== seg) return;
  const loc = e.loc;
  const [line] = await host.read([loc]);
  if (host.idx.events.get(id) !== e || e.loc !== loc) return; // recorded again meanwhile
  if (line === undefined) throw new Error(`history: cannot read event ${id} from ${seg.path}`);
  const moved = host.append(line + '\n');
  seg.events.delete(id);
  e.loc = moved;
  moved.seg.events.add(id);
}
