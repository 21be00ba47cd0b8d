// The single writer of the history log. Appends are synchronous and only touch memory
// (each record gets its final file location at once, and its bytes are encoded straight
// into a slab buffer, where joining the lines into one string and encoding that cost a
// copy more per record); one pump writes whole batches (one fs write per segment per
// batch) shortly after, or at once when the buffer is large. flush() waits for a write of everything appended so far plus one fdatasync;
// calls that arrive while one is under way share the next round, so many concurrent
// flushes cost one write and one sync, and a flush with nothing new costs nothing.
// Slabs are reused once everything in them is written, and a batch that spans slabs is
// written with one writev of their pieces: a 1 MiB buffer allocated for every MiB of
// history (and a copy of each batch that crossed a slab) was the largest churn of C
// memory in the process, and glibc keeps such freed blocks (docs/benchmark.md, "Reading
// a run"). Slabs are small, so the few kept cost little when the log is idle.
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Loc, Segment } from './segments.js';
import { systemClock, type Timer } from '../../clock.js';
import { syncDir, writeParts } from '../write-parts.js';
import { HeadViews } from './line-bytes.js';

/** Consecutive bytes of one segment: earlier slab views, then an open range of the current slab. */
interface Chunk {
  seg: Segment;
  parts: Buffer[];
  slab: Buffer | null;
  from: number;
  to: number;
  bytes: number;
}

/** Lines are encoded into slabs of this size (a longer line gets a slab of its own size, used once). */
const SLAB_BYTES = 256 * 1024;
/** Written slabs kept for reuse: the current slab plus these are all the writer holds when idle. */
const SPARE_SLABS = 2;

interface Waiter {
  target: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface WriterOptions {
  /** Write buffered records this soon after the first of them, even without flush(). */
  delayMs: number;
  /** Write at once when this many bytes are buffered. */
  batchBytes: number;
  onBackgroundError: (err: unknown) => void;
}

export class SegmentWriter {
  private queue: Chunk[] = [];
  private queuedBytes = 0;
  /** Bytes appended / written / known durable, counted over all segments since open. */
  private appended = 0;
  private written = 0;
  private synced = 0;
  private writeWaiters: Waiter[] = [];
  private syncWaiters: Waiter[] = [];
  private pumping: Promise<void> | null = null;
  private timer: Timer | null = null;
  private fh: FileHandle | null = null;
  private fhSeg: Segment | null = null;
  private failure: unknown = null;
  /** Where appends are encoded; bytes before `slabUsed` belong to queued chunks and never change. */
  private slab: Buffer = Buffer.allocUnsafeSlow(0);
  private slabUsed = 0;
  /** Full slabs, each with the `appended` count its last byte reaches: reusable once `written` gets there. */
  private retired: { slab: Buffer; upTo: number }[] = [];
  private spare: Buffer[] = [];
  private readonly heads = new HeadViews();

  constructor(private readonly opts: WriterOptions) {}

  /** Buffers one newline-ended line (`bytes` long in UTF-8) at the end of `seg` and returns where it will be. */
  append(seg: Segment, line: string, bytes: number): Loc {
    const loc: Loc = { seg, off: seg.size, len: bytes - 1 };
    seg.size += bytes;
    if (this.failure) return loc; // the log is broken; the index still answers from memory
    const start = this.reserve(bytes);
    this.slab.write(line, start, bytes, 'utf8');
    this.queued(seg, start, bytes);
    return loc;
  }

  /** append() for a line already encoded: the first `bytes` bytes of `src` (newline included), copied. */
  appendBytes(seg: Segment, src: Buffer, bytes: number): Loc {
    const loc: Loc = { seg, off: seg.size, len: bytes - 1 };
    this.putBytes(seg, src, bytes);
    return loc;
  }

  /** appendBytes() for a caller that does not need the line's location (no object made). */
  putBytes(seg: Segment, src: Buffer, bytes: number): void {
    seg.size += bytes;
    if (this.failure) return;
    const start = this.reserve(bytes);
    this.slab.set(this.heads.of(src, bytes), start); // no view made per line, as Buffer.copy did
    this.queued(seg, start, bytes);
  }

  /** Where in the current slab the next `bytes` go (a new slab if they do not fit). */
  private reserve(bytes: number): number {
    if (this.slab.length - this.slabUsed < bytes) this.nextSlab(bytes);
    this.appended += bytes;
    const start = this.slabUsed;
    this.slabUsed += bytes;
    return start;
  }

  /** Queues the `bytes` just encoded at `start` of the current slab for `seg`'s file. */
  private queued(seg: Segment, start: number, bytes: number): void {
    let last = this.queue[this.queue.length - 1];
    if (!last || last.seg !== seg) this.queue.push((last = { seg, parts: [], slab: null, from: 0, to: 0, bytes: 0 }));
    if (last.slab === this.slab && last.to === start) {
      last.to += bytes; // the usual case: right after the previous line
    } else {
      if (last.slab) last.parts.push(last.slab.subarray(last.from, last.to));
      last.slab = this.slab;
      last.from = start;
      last.to = start + bytes;
    }
    last.bytes += bytes;
    this.queuedBytes += bytes;
    if (this.queuedBytes >= this.opts.batchBytes) this.kick();
    else if (!this.timer) {
      // Real time even under a manual clock: this batches writes, it is not the service's time.
      this.timer = systemClock.setTimeout(() => {
        this.timer = null;
        this.kick();
      }, this.opts.delayMs);
      this.timer.unref();
    }
  }

  private nextSlab(bytes: number): void {
    if (this.slab.length === SLAB_BYTES) this.retired.push({ slab: this.slab, upTo: this.appended });
    this.slab = bytes <= SLAB_BYTES ? (this.spare.pop() ?? Buffer.allocUnsafeSlow(SLAB_BYTES)) : Buffer.allocUnsafeSlow(bytes);
    this.slabUsed = 0;
  }

  /** Slabs whose every byte is in the files go back to the spares (the queue holds no view of them any more). */
  private recycle(): void {
    while (this.retired.length > 0 && this.retired[0].upTo <= this.written) {
      const { slab } = this.retired.shift()!;
      if (this.spare.length < SPARE_SLABS) this.spare.push(slab);
    }
  }

  /** Resolves once everything appended so far is in the files (not necessarily durable). */
  writeOut(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.written >= this.appended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.writeWaiters.push({ target: this.appended, resolve, reject });
      this.kick();
    });
  }

  /** Resolves once every line at `locs` is in its file (it may still be buffered here). */
  whenWritten(locs: Loc[]): Promise<void> {
    return locs.some((l) => l.off + l.len > l.seg.written) ? this.writeOut() : Promise.resolve();
  }

  /** Resolves once everything appended so far is durable. */
  flush(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.synced >= this.appended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.syncWaiters.push({ target: this.appended, resolve, reject });
      this.kick();
    });
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      systemClock.clearTimeout(this.timer);
      this.timer = null;
      while (this.pumping) await this.pumping;
      const fh = this.fh;
      this.fh = null;
      this.fhSeg = null;
      await fh?.close();
    }
  }

  /**
   * Forgets everything not yet written, ends a failure, and lets appends start again
   * (history-log rollback: the caller then cuts the files back to a known point).
   * Anyone waiting is told it failed.
   */
  async reset(err: unknown): Promise<void> {
    systemClock.clearTimeout(this.timer);
    this.timer = null;
    while (this.pumping) await this.pumping.catch(() => undefined);
    const waiters = [...this.writeWaiters, ...this.syncWaiters];
    this.writeWaiters = [];
    this.syncWaiters = [];
    for (const w of waiters) w.reject(err);
    this.queue = [];
    this.queuedBytes = 0;
    this.appended = this.written = this.synced = 0;
    this.retired = []; // their marks counted bytes from before the reset
    this.failure = null;
    const fh = this.fh;
    this.fh = null;
    this.fhSeg = null;
    await fh?.close().catch(() => undefined);
  }

  private kick(): void {
    if (this.timer) {
      systemClock.clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pumping) return;
    this.pumping = this.pump()
      .catch((err) => this.fail(err))
      .finally(() => {
        this.pumping = null;
        // Records appended during the last await, with no timer armed.
        if (!this.failure && (this.queue.length > 0 || this.syncWaiters.length > 0)) this.kick();
      });
  }

  private async pump(): Promise<void> {
    for (;;) {
      if (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        this.queuedBytes = 0;
        for (const chunk of batch) {
          const fh = await this.handleFor(chunk.seg);
          if (chunk.slab) chunk.parts.push(chunk.slab.subarray(chunk.from, chunk.to));
          await writeParts(fh, chunk.parts, null, 'the history log');
          chunk.seg.written += chunk.bytes;
          this.written += chunk.bytes;
        }
        this.recycle();
        this.writeWaiters = settle(this.writeWaiters, this.written);
      }
      if (this.syncWaiters.some((w) => w.target <= this.written)) {
        const upTo = this.written;
        // Earlier segments were synced when the writer moved past them.
        await this.fh?.datasync();
        this.synced = Math.max(this.synced, upTo);
        this.syncWaiters = settle(this.syncWaiters, upTo);
        continue;
      }
      if (this.queue.length === 0) return;
    }
  }

  private async handleFor(seg: Segment): Promise<FileHandle> {
    if (this.fh && this.fhSeg === seg) return this.fh;
    if (this.fh) {
      const old = this.fh;
      this.fh = null;
      this.fhSeg = null;
      try {
        await old.datasync();
      } finally {
        await old.close();
      }
    }
    const fh = await open(seg.path, 'a', 0o600);
    if (seg.isNew) {
      // A new file's name is only durable once the folder is synced.
      await syncDir(dirname(seg.path));
      seg.isNew = false;
    }
    this.fh = fh;
    this.fhSeg = seg;
    return fh;
  }

  private fail(err: unknown): void {
    this.failure = err;
    this.queue = [];
    this.queuedBytes = 0;
    const waiters = [...this.writeWaiters, ...this.syncWaiters];
    this.writeWaiters = [];
    this.syncWaiters = [];
    if (waiters.length === 0) this.opts.onBackgroundError(err);
    for (const w of waiters) w.reject(err);
  }
}

function settle(waiters: Waiter[], reached: number): Waiter[] {
  const rest: Waiter[] = [];
  for (const w of waiters) {
    if (w.target <= reached) w.resolve();
    else rest.push(w);
  }
  return rest;
}
