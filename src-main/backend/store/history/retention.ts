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
import { readAttempts, readLocs, type Loc, type Segment } from './segments.js';
import type { SegmentWriter } from './writer.js';
import type { Clock } from '../../clock.js';
import type { HistoryIndex } from './index-state.js';
import { removeSidecar } from './sidecar.js';

export interface RetentionHost {
  readonly idx: HistoryIndex;
  append(line: string): Loc;
  read(locs: Loc[]): Promise<(string | undefined)[]>;
  /** Resolves once every line at `locs` is in its file. */
  written(locs: Loc[]): Promise<void>;
  flush(): Promise<void>;
}

const BATCH = 64;

/** Retention passes, one at a time: a failed one is reported and the next waits a minute (not one try per append). */
export class RetentionRuns {
  private running: Promise<void> | null = null;
  private pausedUntil = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts `pass` unless one is under way or paused; `then` is called after it succeeded. */
  start(pass: () => Promise<void>, then: () => void): void {
    if (this.running || this.clock.now() < this.pausedUntil) return;
    this.running = pass().then(
      () => {
        this.running = null;
        then();
      },
      (err: unknown) => {
        this.running = null;
        this.pausedUntil = this.clock.now() + 60_000;
        this.onError(err);
      },
    );
  }

  /** Whether a pass is under way now. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves once no pass is under way (and none started by the last one's `then`). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

/** Retention's view of a log: its index, its appends and its writer's reads and syncs. */
export function logHost(idx: HistoryIndex, append: (line: string) => Loc, writer: SegmentWriter): RetentionHost {
  return {
    idx,
    append,
    read: (locs) => writer.whenWritten(locs).then(() => readLocs(locs)),
    written: (locs) => writer.whenWritten(locs),
    flush: () => writer.flush(),
  };
}

/**
 * Drops the oldest of `segments` (changed in place) while more than `cap` deliveries are
 * indexed and another segment is left, unless `stopped()`.
 */
export async function dropOldest(host: RetentionHost, segments: Segment[], cap: number, stopped: () => boolean): Promise<void> {
  while (!stopped() && host.idx.d.size > cap && segments.length > 1) {
    const oldest = segments[0];
    await dropSegment(host, oldest);
    segments.splice(segments.indexOf(oldest), 1);
    host.idx.segs.delete(oldest.id);
  }
}

/** Empties `seg` of index entries (carrying what must stay), then deletes its file. */
export async function dropSegment(host: RetentionHost, seg: Segment): Promise<void> {
  const { idx } = host;
  seg.dropping = true; // a sidecar still being made of it stops (its rows go)
  for (;;) {
    // Each pass ends in a synchronous check, so nothing can change between it and the drop.
    const based = idx.deliveriesIn(seg.id);
    const pending = based.filter((s) => idx.d.isPending(s)).map((s) => idx.d.idOf(s));
    if (pending.length > 0) {
      await inBatches(pending, (id) => carryDelivery(host, seg, id));
      continue;
    }
    idx.removeDeliveries(based);
    const events = idx.ev.inSegment(seg.id);
    const referenced = events.filter((i) => idx.ev.referenced(i)).map((i) => idx.eventIds.get(i));
    if (referenced.length > 0) {
      await inBatches(referenced, (id) => carryEvent(host, seg, id));
      continue;
    }
    idx.removeEvents(events);
    break;
  }
  await host.flush(); // the carried copies are durable before the originals go
  try {
    await unlink(seg.path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await removeSidecar(seg.path);
}

async function inBatches(ids: string[], fn: (id: string) => Promise<void>): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) await Promise.all(ids.slice(i, i + BATCH).map(fn));
}

/** Re-appends a pending delivery (summary + every attempt, one line) unless it changed meanwhile. */
async function carryDelivery(host: RetentionHost, seg: Segment, id: string): Promise<void> {
  const { idx } = host;
  const { d } = idx;
  const stays = (s: number | undefined): s is number => s !== undefined && d.c.baseSeg[s] === seg.id && d.isPending(s);
  for (;;) {
    const s = d.slot(id);
    if (!stays(s)) return;
    const tail = d.attemptTail(s);
    const locs = idx.attempts(s);
    const attempts = await readAttempts(locs, (l) => host.written(l));
    // Synchronous from here on: nothing can be appended between the check and the copy.
    if (d.slot(id) !== s || !stays(s)) return;
    if (d.attemptTail(s) !== tail) continue; // an attempt arrived: read again
    const v = d.read(s);
    const loc = host.append(carriedDeliveryLine(d.c.seq[s], v, attempts));
    idx.rebase(
      s,
      v,
      loc.seg,
      attempts.map((_, i) => ({ ...loc, item: i })),
    );
    return;
  }
}

async function carryEvent(host: RetentionHost, seg: Segment, id: string): Promise<void> {
  const { idx } = host;
  const loc = idx.eventLoc(id);
  if (!loc || loc.seg.id !== seg.id) return;
  const [line] = await host.read([loc]);
  const now = idx.eventLoc(id);
  if (!now || now.seg.id !== loc.seg.id || now.off !== loc.off) return; // recorded again meanwhile
  if (line === undefined) throw new Error(`history: cannot read event ${id} from ${seg.path}`);
  const moved = host.append(line + '\n');
  const i = idx.ev.find(id);
  if (i !== undefined) idx.ev.setLoc(i, moved);
}
