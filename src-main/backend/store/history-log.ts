// The history log (see history-types.ts): every event, delivery summary and attempt, in append-only segment files
// `seg-NNNNNN.jsonl` under `dir`, one JSON record a line (history/records.ts). Appending costs the same with 100 or 100,000
// deliveries in history: records are buffered and written in batches by one writer (history/writer.ts), the index (compact,
// history/index-state.ts) is updated in place (let go while the service idles, made again when next needed:
// history/held-index.ts), attempt details and event bodies stay on disk, read back by location; closed segments get an
// index sidecar so start-up need not read them (history/sidecar.ts). flush() makes everything appended before it durable
// (write + fdatasync; records are also written within a few ms without it). At open, a torn last line (crash mid-write) is
// cut off and the last segment appended to; damaged lines are skipped. Retention: history/retention.ts. Attempts before
// their delivery's first summary: history/orphans.ts. Records after close() are ignored.
import { mkdir } from 'node:fs/promises';
import type { AttemptRecord, DeliveryFilter, DeliverySummary, DeliveryTarget, EventSummary } from './history-types.js';
import type { HistoryLog, HistoryLogOptions, HistoryMark } from './history-types.js';
import { attemptChange, eventLine, parseEventBody } from './history/records.js';
import { FanoutLines } from './history/summary-bytes.js';
import type { LineBytes } from './history/line-bytes.js';
import { keepsEventId, type LineChange } from './history/attempt-bytes.js';
import { OrphanAttempts } from './history/orphans.js';
import { newSegment, readAttempts, readLocs, type Loc, type Segment } from './history/segments.js';
import { RecentBodies } from './history/body-refs.js';
import { SegmentWriter } from './history/writer.js';
import { HistoryIndex } from './history/index-state.js';
import { HeldIndex } from './history/held-index.js';
import { loadSegments } from './history/loader.js';
import { dropOldest, logHost, RetentionRuns } from './history/retention.js';
import { cutBack } from './history/rollback.js';
import { SidecarQueue } from './history/sidecar.js';
import { KnownForeign } from './history/known-foreign.js';
import { explainFsError } from './store-errors.js';
import { systemClock, type Clock } from '../clock.js';
import type { Page } from '@shared/api-types.js';

export function createHistoryLog(opts: HistoryLogOptions): HistoryLog {
  return new SegmentedHistoryLog(opts);
}

class SegmentedHistoryLog implements HistoryLog {
  private readonly held: HeldIndex;
  private readonly writer: SegmentWriter;
  private readonly sidecars: SidecarQueue; // of closed segments, written in the background
  private readonly segmentBytes: number;
  private readonly segmentDeliveries: number;
  private readonly onBackgroundError: (err: unknown) => void;
  private readonly clock: Clock;
  private segments: Segment[] = [];
  private cur!: Segment;
  private nextDeliverySeq = 1;
  private nextEventSeq = 1;
  /** Attempt lines whose delivery has no summary yet. */
  private readonly orphans = new OrphanAttempts();
  /** Event bodies an attempt line may refer to instead of repeating them (history/body-refs.ts). */
  private readonly bodies = new RecentBodies((id) => this.idx.eventLoc(id));
  private readonly fanout = new FanoutLines(); // base lines of one call's deliveries of an event
  private readonly known = new KnownForeign(); // the current segment's lines about older segments' deliveries, for its sidecar
  private readonly retention: RetentionRuns;
  private state: 'new' | 'open' | 'rolling-back' | 'closing' | 'closed' = 'new';

  constructor(private readonly opts: HistoryLogOptions) {
    this.clock = opts.clock ?? systemClock;
    this.segmentBytes = opts.segmentBytes ?? 32 * 1024 * 1024;
    this.segmentDeliveries = opts.segmentDeliveries ?? Math.max(1, Math.ceil(opts.cap / 8));
    this.onBackgroundError = opts.onBackgroundError ?? ((err) => console.error('[history] background work failed:', err));
    this.writer = new SegmentWriter({ delayMs: opts.writeDelayMs ?? 5, batchBytes: 512 * 1024, onBackgroundError: this.onBackgroundError });
    this.sidecars = new SidecarQueue(() => this.writer.writeOut(), this.onBackgroundError);
    this.retention = new RetentionRuns(this.clock, this.onBackgroundError);
    this.held = new HeldIndex(this.clock, {
      segments: () => this.segments,
      quiet: () => this.state === 'open' && !this.retention.busy && this.cur.written === this.cur.size && !this.sidecars.busy,
      released: () => [this.known, this.bodies].forEach((kept) => kept.clear()), // notes on the index's rows; recent bodies (~4 MiB)
    });
  }

  private get idx(): HistoryIndex {
    return this.held.index; // rebuilt from the files first if the idle collection let it go (history/held-index.ts)
  }

  async open(): Promise<string[]> {
    if (this.state !== 'new') throw new Error('the history log was already opened');
    await mkdir(this.opts.dir, { recursive: true, mode: 0o700 }).catch((err: unknown) => {
      throw explainFsError(this.opts.dir, err, 'the delivery history');
    });
    const warnings = await this.load();
    this.state = 'open';
    this.maybeRetain();
    return warnings;
  }

  private async load(): Promise<string[]> {
    const idx = new HistoryIndex(true);
    this.held.set(idx);
    this.orphans.clear();
    this.bodies.clear();
    this.known.clear();
    const loaded = await loadSegments(this.opts.dir, idx);
    this.segments = loaded.segments;
    this.nextDeliverySeq = loaded.nextDeliverySeq;
    this.nextEventSeq = loaded.nextEventSeq;
    if (this.segments.length === 0) this.addSegment(newSegment(this.opts.dir, 1, true));
    this.cur = this.segments[this.segments.length - 1];
    for (const seg of loaded.rescanned) this.sidecars.add(seg);
    return loaded.warnings;
  }

  mark = (): HistoryMark => ({ segment: this.cur.id, size: this.cur.size });

  async rollback(mark: HistoryMark): Promise<void> {
    if (this.state !== 'open') return;
    // Records that arrive meanwhile belong to changes the store is about to undo too.
    this.state = 'rolling-back';
    try {
      await this.retention.idle();
      await this.sidecars.idle();
      await this.writer.reset(new Error('the history log was rolled back after a failed write'));
      await cutBack(this.opts.dir, mark);
      await this.load();
    } finally {
      if (this.state === 'rolling-back') this.state = 'open';
    }
  }

  recordEvent(event: EventSummary, body: string): void {
    if (!this.writable()) return;
    const seq = this.idx.eventSeq(event.id) ?? this.nextEventSeq++;
    const field = this.bodies.field(event.id, body);
    const loc = this.append(eventLine(seq, event, body, field));
    this.idx.putEvent(seq, event, loc);
    this.bodies.remember(event.id, body, loc, field);
  }

  recordDelivery = (v: DeliverySummary): void => this.recordDeliveries([v]);

  recordDeliveries(vs: readonly DeliverySummary[]): void {
    if (!this.writable()) return;
    this.fanout.reset();
    for (let i = 0; i < vs.length; i++) this.recordOne(vs[i], i + 1 < vs.length, false);
    this.maybeRetain();
  }

  recordFanout(template: DeliverySummary, targets: readonly DeliveryTarget[], urls: readonly string[]): void {
    if (!this.writable()) return;
    this.fanout.reset();
    const v = { ...template }; // one summary, given each target's id, subscription and url in turn (nothing keeps it)
    for (let i = 0; i < targets.length; i++) {
      v.id = targets[i].id;
      v.subscription_id = targets[i].subscription_id;
      v.url = urls[i];
      this.recordOne(v, i + 1 < targets.length, true, i > 0);
    }
    this.maybeRetain();
  }

  /** One summary of a batch; `fresh`: its id was just made, so it is new (not looked up) and has no orphans; `again`: `v` is the batch's last summary object, changed in its id, subscription and url only. */
  private recordOne(v: DeliverySummary, more: boolean, fresh: boolean, again = false): void {
    const lines = this.fanout; // and the slot of the delivery whose line is its template
    const existing = fresh ? undefined : this.idx.d.slot(v.id);
    if (existing !== undefined) {
      if (existing === lines.slot) lines.slot = -1; // its row changes: the next are indexed from their own values
      return this.changeSummary(existing, v);
    }
    if (this.cur.created >= this.segmentDeliveries && this.cur.size > 0) this.rotate();
    const seq = this.nextDeliverySeq++;
    const line = lines.line(seq, v, more, again);
    if (this.wouldRotate(line.n)) this.rotate();
    this.writer.putBytes(this.cur, line.buf, line.n); // a base line's place is its seq's: no Loc needed
    this.cur.created++;
    const slot = this.idx.addDelivery(seq, v, this.cur, lines.copied ? lines.slot : -1);
    if (!lines.copied) lines.slot = lines.ready ? slot : -1;
    if (!fresh) for (const l of this.orphans.take(v.id) ?? []) this.idx.d.addAttempt(slot, this.append(l));
  }

  recordAttempt(attempt: AttemptRecord): void {
    if (!this.writable()) return;
    const slot = this.idx.d.slot(attempt.delivery_id);
    if (slot !== undefined) this.appendAttempt(slot, attempt, '');
    else this.orphans.hold(attempt);
  }

  recordAttempted(attempt: AttemptRecord, v: DeliverySummary): void {
    if (!this.writable()) return;
    const slot = this.idx.d.slot(v.id);
    if (slot === undefined || attempt.delivery_id !== v.id) {
      this.recordAttempt(attempt);
      return this.recordDelivery(v);
    }
    this.changeSummary(slot, v, attempt);
  }

  getDelivery = (id: string): DeliverySummary | undefined => this.idx.getDelivery(id);
  pendingDeliveries = (): DeliverySummary[] => this.idx.pendingDeliveries();

  listDeliveries(filter: DeliveryFilter, page: { limit: number; starting_after?: string }): Page<DeliverySummary> {
    return this.idx.list(filter, page);
  }

  deliveriesByTime(companyId: string, from?: { ms: number; id: string }): Iterable<{ d: DeliverySummary; ms: number }> {
    return this.idx.byTime(companyId, from);
  }

  async getAttempts(deliveryId: string): Promise<AttemptRecord[]> {
    const slot = this.idx.d.slot(deliveryId);
    if (slot !== undefined) return readAttempts(this.idx.attempts(slot), (locs) => this.writer.whenWritten(locs));
    return this.orphans.attempts(deliveryId);
  }

  getEvent = (id: string): EventSummary | undefined => this.idx.getEvent(id);

  async getEventBody(id: string): Promise<string | undefined> {
    const loc = this.idx.eventLoc(id);
    if (!loc) return undefined;
    await this.writer.whenWritten([loc]);
    const [line] = await readLocs([loc]);
    return line === undefined ? undefined : parseEventBody(line);
  }

  eventsForDocument = (companyId: string, documentId: string): EventSummary[] => this.idx.eventsForDocument(companyId, documentId);

  flush = (): Promise<void> => this.whenWritable(() => this.writer.flush());
  writeOut = (): Promise<void> => this.whenWritable(() => this.writer.writeOut());

  private whenWritable(fn: () => Promise<void>): Promise<void> {
    if (this.state === 'rolling-back') return Promise.reject(new Error('the history log is being rolled back'));
    return this.state === 'open' || this.state === 'closing' ? fn() : Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'closing';
    try {
      await this.retention.idle();
      await this.writer.close();
      await this.sidecars.idle(); // so the next start reads indexes rather than segments
    } catch (err) {
      // What could not be written is lost like in a crash; stopping goes on (the store's
      // journal holds every acknowledged change).
      this.onBackgroundError(err);
    } finally {
      this.state = 'closed';
    }
  }

  /** Recording before open() is a defect; after close() (a late result at shutdown) or during a rollback it is ignored. */
  private writable(): boolean {
    if (this.state === 'new') throw new Error('the history log is not open yet');
    return this.state === 'open';
  }

  private readonly wouldRotate = (bytes: number): boolean => this.cur.size > 0 && this.cur.size + bytes > this.segmentBytes;

  /** Records `v` as the new summary of the delivery at `slot`, after `attempt` if given (one append: on the attempt's line when it can). */
  private changeSummary(slot: number, v: DeliverySummary, attempt?: AttemptRecord): void {
    // The usual change after an attempt is told from the stored row in place (no summary read back).
    const bits = attempt ? (this.idx.d.rows.changeBits(slot, attempt, v, v.id) ?? -1) : -1;
    const { patch, after } = bits >= 0 ? { patch: { bits, d: v }, after: '' } : attemptChange(attempt, this.idx.d.read(slot), v);
    const eventId = bits >= 0 && keepsEventId(bits) ? v.event_id : undefined;
    const loc = attempt ? this.appendAttempt(slot, attempt, after, patch, eventId) : after ? this.append(after) : undefined;
    this.known.changed(slot, this.idx.d.c.baseSeg[slot], attempt && loc, bits);
    if (bits < 0 || !this.idx.d.rows.writeChanged(slot, v, bits)) this.idx.updateDelivery(slot, v);
  }

  /** Appends an attempt of the delivery at `slot` (`patch` on its line; returns where), then `after` (whole lines, or ''; `knownEventId`: its event's id, if the caller has it as a string); its body refers to its event's line only if both fit the current segment (an event line in an older segment with the same body is copied here first). */
  private appendAttempt(slot: number, attempt: AttemptRecord, after: string, patch: LineChange = '', knownEventId?: string): Loc {
    const afterBytes = after.length === 0 ? 0 : Buffer.byteLength(after);
    const eventId = knownEventId ?? this.idx.eventIds.get(this.idx.d.c.evt[slot]);
    const at = typeof attempt.request?.body === 'string' ? this.bodies.where(eventId, attempt.request.body) : undefined;
    const event = at && at.seg !== this.cur ? this.idx.getEvent(eventId) : undefined;
    if (event) this.recordEvent(event, attempt.request.body);
    const line = this.bodies.attemptLine(attempt, eventId, this.cur, this.segmentBytes - afterBytes, patch); // as wouldRotate
    if (this.wouldRotate(line.n + afterBytes)) this.rotate();
    const loc = this.writer.appendBytes(this.cur, line.buf, line.n);
    this.idx.d.addAttempt(slot, loc);
    if (afterBytes > 0) this.writer.append(this.cur, after, afterBytes);
    return loc;
  }

  /** Appends one or more whole lines (`bytes` long in UTF-8, if known), or one line already encoded (copied at once), to the current segment, rotating first if they do not fit. */
  private append(line: string | LineBytes, bytes = typeof line === 'string' ? Buffer.byteLength(line) : line.n): Loc {
    if (this.wouldRotate(bytes)) this.rotate();
    if (typeof line !== 'string') return this.writer.appendBytes(this.cur, line.buf, bytes);
    return this.writer.append(this.cur, line, bytes);
  }

  private rotate(): void {
    const closed = this.cur;
    this.cur = this.addSegment(newSegment(this.opts.dir, this.cur.id + 1, true));
    this.sidecars.add(closed, this.idx, this.known.take(this.idx, closed));
  }

  private addSegment(seg: Segment): Segment {
    this.segments.push(seg);
    this.idx.segs.set(seg.id, seg);
    return seg;
  }

  private maybeRetain(): void {
    if (this.state !== 'open' || this.retention.busy || this.idx.d.size <= this.opts.cap || this.segments.length < 2) return;
    const host = logHost(this.idx, (line) => this.append(line), this.writer);
    // close() lets a retention under way finish, so the cap holds on disk too.
    const pass = () => dropOldest(host, this.segments, this.opts.cap, () => this.state === 'closed');
    this.retention.start(pass, () => this.maybeRetain());
  }
}
