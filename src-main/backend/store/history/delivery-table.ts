// The delivery summaries of the history index, in columns (columns.ts): one slot per
// delivery, its strings interned (interner.ts), its times and numbers as float64s,
// its attempts' file locations in a chain of the LocPool. A summary is read back as
// the same object it was recorded as: the same keys in the same order with the same
// values. One that this form cannot give back exactly (keys of another order or kind,
// a time that is not a canonical ISO string: an imported record) is kept whole instead,
// its key fields still in the columns for the lists.
import type { DeliveryStatus, EventType } from '@shared/api-types.js';
import type { DeliverySummary } from '../history-types.js';
import { grown, isoMs, keysInOrder, msIso, nextCapacity, numOrNull } from './columns.js';
import type { Interner } from './interner.js';
import type { LocPool } from './loc-pool.js';
import type { Loc } from './segments.js';

const KEYS = [
  'id',
  'event_id',
  'event_type',
  'subscription_id',
  'company_id',
  'document_id',
  'url',
  'status',
  'attempts',
  'created_at',
  'last_attempt_at',
  'last_status_code',
  'last_error',
  'last_duration_ms',
  'next_attempt_at',
] as const;
const TAIL = ['imported', 'origin', 'last_tunnel_offline'] as const;
const STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'cancelled', 'skipped'];
const OTHER_STATUS = 255;
const IMPORTED = 1;
const CHECK = 2;
const TUNNEL_OFFLINE = 4;

/** The compact form's numbers, or null if the summary does not fit it exactly. */
function numbers(v: DeliverySummary): [number, number, number, number, number] | null {
  const created = isoMs(v.created_at);
  const lastAt = v.last_attempt_at === null ? NaN : isoMs(v.last_attempt_at);
  const code = numOrNull(v.last_status_code);
  const dur = numOrNull(v.last_duration_ms);
  const next = numOrNull(v.next_attempt_at);
  if (Number.isNaN(created) || (Number.isNaN(lastAt) && v.last_attempt_at !== null)) return null;
  if (code === undefined || dur === undefined || next === undefined) return null;
  return [created, lastAt, code, dur, next];
}

function fits(v: DeliverySummary): boolean {
  return (
    keysInOrder(v, KEYS, TAIL) &&
    typeof v.id === 'string' &&
    typeof v.event_id === 'string' &&
    typeof v.event_type === 'string' &&
    typeof v.subscription_id === 'string' &&
    typeof v.company_id === 'string' &&
    (v.document_id === null || typeof v.document_id === 'string') &&
    typeof v.url === 'string' &&
    STATUSES.includes(v.status) &&
    Number.isInteger(v.attempts) &&
    v.attempts >= 0 &&
    v.attempts < 2 ** 31 &&
    (v.last_error === null || typeof v.last_error === 'string') &&
    (v.imported === undefined || v.imported === true) &&
    (v.origin === undefined || v.origin === 'check') &&
    (v.last_tunnel_offline === undefined || v.last_tunnel_offline === true)
  );
}

export class DeliveryTable {
  private readonly slotOf = new Map<string, number>();
  private readonly ids: (string | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly odd = new Map<number, DeliverySummary>();
  private used = 0;
  seq = new Float64Array(0);
  private created = new Float64Array(0);
  private lastAt = new Float64Array(0);
  private code = new Float64Array(0);
  private dur = new Float64Array(0);
  private next = new Float64Array(0);
  /** The id of the segment holding the base record. */
  baseSeg = new Int32Array(0);
  evt = new Int32Array(0);
  sub = new Int32Array(0);
  company = new Int32Array(0);
  doc = new Int32Array(0);
  private type = new Int32Array(0);
  private url = new Int32Array(0);
  private err = new Int32Array(0);
  private attempts = new Int32Array(0);
  private aHead = new Int32Array(0);
  private aTail = new Int32Array(0);
  private status = new Uint8Array(0);
  private flags = new Uint8Array(0);

  constructor(
    private readonly strs: Interner,
    private readonly eventIds: Interner,
    private readonly pool: LocPool,
  ) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** One past the highest slot ever used (slots below it may be free). */
  get end(): number {
    return this.used;
  }

  slot(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  isLive(slot: number): boolean {
    return this.ids[slot] !== undefined;
  }

  idOf(slot: number): string {
    return this.ids[slot] as string;
  }

  insert(seq: number, v: DeliverySummary, segId: number): number {
    const s = this.alloc();
    this.ids[s] = v.id;
    this.slotOf.set(v.id, s);
    this.seq[s] = seq;
    this.baseSeg[s] = segId;
    this.aHead[s] = this.aTail[s] = -1;
    this.evt[s] = this.sub[s] = this.company[s] = this.doc[s] = this.type[s] = this.url[s] = this.err[s] = -1;
    this.write(s, v);
    return s;
  }

  /** Replaces a slot's summary (its id stays). */
  write(s: number, v: DeliverySummary): void {
    const { strs } = this;
    this.evt[s] = this.eventIds.swap(this.evt[s], String(v.event_id));
    this.sub[s] = strs.swap(this.sub[s], String(v.subscription_id));
    this.company[s] = strs.swap(this.company[s], String(v.company_id));
    this.doc[s] = this.swapOrNull(this.doc[s], v.document_id === null ? null : String(v.document_id));
    const nums = fits(v) ? numbers(v) : null;
    if (!nums) {
      this.type[s] = this.swapOrNull(this.type[s], null);
      this.url[s] = this.swapOrNull(this.url[s], null);
      this.err[s] = this.swapOrNull(this.err[s], null);
      const st = STATUSES.indexOf(v.status);
      this.status[s] = st < 0 ? OTHER_STATUS : st;
      this.odd.set(s, { ...v });
      return;
    }
    this.odd.delete(s);
    this.type[s] = strs.swap(this.type[s], v.event_type);
    this.url[s] = strs.swap(this.url[s], v.url);
    this.err[s] = this.swapOrNull(this.err[s], v.last_error);
    this.status[s] = STATUSES.indexOf(v.status);
    this.attempts[s] = v.attempts;
    [this.created[s], this.lastAt[s], this.code[s], this.dur[s], this.next[s]] = nums;
    this.flags[s] = (v.imported ? IMPORTED : 0) | (v.origin === 'check' ? CHECK : 0) | (v.last_tunnel_offline ? TUNNEL_OFFLINE : 0);
  }

  read(s: number): DeliverySummary {
    const o = this.odd.get(s);
    if (o) return { ...o };
    const { strs } = this;
    const v: DeliverySummary = {
      id: this.ids[s] as string,
      event_id: this.eventIds.get(this.evt[s]),
      event_type: strs.get(this.type[s]) as EventType,
      subscription_id: strs.get(this.sub[s]),
      company_id: strs.get(this.company[s]),
      document_id: this.doc[s] < 0 ? null : strs.get(this.doc[s]),
      url: strs.get(this.url[s]),
      status: STATUSES[this.status[s]],
      attempts: this.attempts[s],
      created_at: msIso(this.created[s]) as string,
      last_attempt_at: msIso(this.lastAt[s]),
      last_status_code: nanNull(this.code[s]),
      last_error: this.err[s] < 0 ? null : strs.get(this.err[s]),
      last_duration_ms: nanNull(this.dur[s]),
      next_attempt_at: nanNull(this.next[s]),
    };
    const f = this.flags[s];
    if (f & IMPORTED) v.imported = true;
    if (f & CHECK) v.origin = 'check';
    if (f & TUNNEL_OFFLINE) v.last_tunnel_offline = true;
    return v;
  }

  isPending(s: number): boolean {
    return this.status[s] === 0;
  }

  /** Frees the slot and everything it refers to. */
  remove(s: number): void {
    const id = this.ids[s];
    if (id === undefined) return;
    this.slotOf.delete(id);
    this.ids[s] = undefined;
    this.odd.delete(s);
    this.eventIds.release(this.evt[s]);
    for (const col of [this.sub, this.company, this.doc, this.type, this.url, this.err]) this.swapOrNull(col[s], null);
    this.pool.freeChain(this.aHead[s]);
    this.freeSlots.push(s);
  }

  addAttempt(s: number, loc: Loc): void {
    const n = this.pool.append(this.aTail[s], loc);
    if (this.aHead[s] < 0) this.aHead[s] = n;
    this.aTail[s] = n;
  }

  /** Replaces every attempt location (a carried base embeds them all). */
  setAttempts(s: number, locs: Loc[]): void {
    this.pool.freeChain(this.aHead[s]);
    this.aHead[s] = this.aTail[s] = -1;
    for (const loc of locs) this.addAttempt(s, loc);
  }

  attemptHead(s: number): number {
    return this.aHead[s];
  }

  /** The last attempt node: changes whenever an attempt is added or the chain replaced. */
  attemptTail(s: number): number {
    return this.aTail[s];
  }

  private swapOrNull(old: number, value: string | null): number {
    if (value !== null) return this.strs.swap(old, value);
    if (old >= 0) this.strs.release(old);
    return -1;
  }

  private alloc(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    if (this.used === this.seq.length) this.growTo(nextCapacity(this.used));
    return this.used++;
  }

  private growTo(cap: number): void {
    this.seq = grown(this.seq, cap);
    this.created = grown(this.created, cap);
    this.lastAt = grown(this.lastAt, cap);
    this.code = grown(this.code, cap);
    this.dur = grown(this.dur, cap);
    this.next = grown(this.next, cap);
    this.baseSeg = grown(this.baseSeg, cap);
    this.evt = grown(this.evt, cap);
    this.sub = grown(this.sub, cap);
    this.company = grown(this.company, cap);
    this.doc = grown(this.doc, cap);
    this.type = grown(this.type, cap);
    this.url = grown(this.url, cap);
    this.err = grown(this.err, cap);
    this.attempts = grown(this.attempts, cap);
    this.aHead = grown(this.aHead, cap);
    this.aTail = grown(this.aTail, cap);
    this.status = grown(this.status, cap);
    this.flags = grown(this.flags, cap);
  }
}

const nanNull = (n: number): number | null => (Number.isNaN(n) ? null : n);
