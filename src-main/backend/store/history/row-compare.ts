// A delivery's stored row compared in place with the summary an attempt made of it
// (attempt-bytes.ts changeBitsFrom): which of the fifteen fields changed, without
// reading the row back as a summary first. Reading it (decodeRow: an object, two ISO
// times, the id and event id as new strings) cost ~0.5 KB and a few µs per attempt, only
// to be compared and thrown away.
import type { AttemptRecord, DeliverySummary } from '../history-types.js';
import { changeBitsFrom } from './attempt-bytes.js';
import { isoMs, msIso, numOrNull } from './columns.js';
import { STATUSES, type ColdColumns, type DeliveryColumns } from './delivery-row.js';
import type { IdInterner } from './id-interner.js';
import type { Interner } from './interner.js';

/** Whether `v` is the time stored as `ms` (NaN: null): msIso(ms) === v, without making msIso(ms). */
function sameTime(v: unknown, ms: number): boolean {
  if (Number.isNaN(ms)) return v === null;
  // A compact row holds only times that isoMs read from their canonical 24-character ISO
  // text (delivery-row.ts numbers), and that text is the one string whose isoMs is `ms`.
  return typeof v === 'string' && v.length === 24 && isoMs(v) === ms;
}

/** The last created_at sameCreated read, and its time: the deliveries of one event share that string, and end one after another. */
let lastCreated: unknown;
let lastCreatedMs = NaN;

/** sameTime for created_at, reading each distinct string once in a row. */
function sameCreated(v: unknown, ms: number): boolean {
  if (Number.isNaN(ms) || typeof v !== 'string' || v.length !== 24) return sameTime(v, ms);
  if (v !== lastCreated) lastCreatedMs = isoMs((lastCreated = v));
  return lastCreatedMs === ms;
}

/** The string columns of SUMMARY_KEYS indexes 2-6 and 12 (numbers in the string interner, -1: null). */
const STRING_FIELDS: Partial<Record<number, 'type' | 'sub' | 'company' | 'doc' | 'url' | 'err'>> = {
  2: 'type',
  3: 'sub',
  4: 'company',
  5: 'doc',
  6: 'url',
  12: 'err',
};
const nanNull = (n: number): number | null => (Number.isNaN(n) ? null : n);

/** The SUMMARY_KEYS an attempt changes (status, attempts, last attempt's time, status code, error, duration, next attempt), as bits. */
const ATTEMPT_FIELDS = (1 << 7) | (1 << 8) | (1 << 10) | (1 << 11) | (1 << 12) | (1 << 13) | (1 << 14);

/** Whether `v` is the number stored as `n` (NaN: null). */
const sameNum = (v: unknown, n: number): boolean => (Number.isNaN(n) ? v === null : v === n);

export class RowCompare {
  /** The row being compared (changeBits sets it; `same` reads it). */
  private s = 0;
  /** Its cold row (DeliveryTable.coldRow). */
  private r = 0;
  /** The id the caller found row `s` by (changeBits' `foundBy`): the row holds it, no need to compare its bytes. */
  private foundBy: string | undefined;

  constructor(
    /** The table's columns and DeliveryTable.isUsual. */
    private readonly table: {
      readonly c: Omit<DeliveryColumns, keyof ColdColumns>;
      readonly cold: { readonly k: ColdColumns };
      isUsual(s: number): boolean;
      coldRow(s: number): number;
    },
    private readonly ids: { idOf(s: number): string | undefined; holds(s: number, id: string): boolean },
    private readonly strs: Interner,
    private readonly eventIds: IdInterner,
  ) {}

  /**
   * attempt-bytes.ts changeBits(a, old, d) where `old` is the summary row `s` reads back
   * as, without making it; undefined for a row not of the usual shape (read it back).
   * `foundBy`: the id `s` was looked up by (DeliveryTable.slot), if it was.
   */
  changeBits(s: number, a: AttemptRecord, d: DeliverySummary, foundBy?: string): number | undefined {
    if (!this.table.isUsual(s)) return undefined;
    this.s = s;
    this.r = this.table.coldRow(s);
    this.foundBy = foundBy;
    return changeBitsFrom(a, d, this.same);
  }

  /**
   * DeliveryTable.write(s, d) for the usual change after an attempt, when changeBits(s, a, d)
   * just gave `bits` (>= 0): only the columns of the fields that changed are written, and
   * they can only be fields an attempt changes. The others (ids, interned strings, creation
   * time, key shape, flags) are equal to what the row holds (changeBits compared them), and
   * write() would swap each for itself: an interner lookup or an ISO parse each, for nothing.
   * False, with nothing written, when that does not apply (another field changed, a value
   * the columns cannot hold exactly): the caller writes the whole row then.
   */
  writeChanged(s: number, d: DeliverySummary, bits: number): boolean {
    const changed = (bits | (bits >>> 16)) & 0xffff;
    if ((changed & ~ATTEMPT_FIELDS) !== 0 || !this.table.isUsual(s)) return false;
    const status = STATUSES.indexOf(d.status);
    const { attempts, last_error: err } = d;
    const lastAt = d.last_attempt_at === null ? NaN : isoMs(d.last_attempt_at);
    const code = numOrNull(d.last_status_code);
    const dur = numOrNull(d.last_duration_ms);
    const next = numOrNull(d.next_attempt_at);
    // What delivery-row.ts fits() and numbers() ask of these fields.
    if (status < 0 || !Number.isInteger(attempts) || attempts < 0 || attempts >= 2 ** 31) return false;
    if ((err !== null && typeof err !== 'string') || (Number.isNaN(lastAt) && d.last_attempt_at !== null)) return false;
    if (code === undefined || dur === undefined || next === undefined) return false;
    const k = this.table.cold.k;
    const r = this.table.coldRow(s); // in memory since changeBits
    this.table.c.status[s] = status;
    k.attempts[r] = attempts;
    k.lastAt[r] = lastAt;
    k.code[r] = code;
    k.dur[r] = dur;
    k.next[r] = next;
    if ((changed & (1 << 12)) !== 0) {
      const old = k.err[r];
      if (err !== null) k.err[r] = this.strs.swap(old, err);
      else {
        if (old >= 0) this.strs.release(old);
        k.err[r] = -1;
      }
    }
    return true;
  }

  /** Field `i` (SUMMARY_KEYS index) of usual row `s` (isUsual) as DeliveryTable.read gives it. */
  field(s: number, i: number): unknown {
    const c = this.table.c;
    const k = this.table.cold.k;
    const r = this.table.coldRow(s);
    switch (i) {
      case 0:
        return this.ids.idOf(s);
      case 1:
        return this.eventIds.get(c.evt[s]);
      case 7:
        return STATUSES[c.status[s]];
      case 8:
        return k.attempts[r];
      case 9:
        return msIso(c.created[s]);
      case 10:
        return msIso(k.lastAt[r]);
      case 11:
        return nanNull(k.code[r]);
      case 13:
        return nanNull(k.dur[r]);
      case 14:
        return nanNull(k.next[r]);
      default: {
        const name = STRING_FIELDS[i] as 'type' | 'sub' | 'company' | 'doc' | 'url' | 'err';
        const n = name === 'type' || name === 'url' || name === 'err' ? k[name][r] : c[name][s];
        return n < 0 ? null : this.strs.get(n);
      }
    }
  }

  private readonly same = (i: number, v: unknown): boolean => {
    const c = this.table.c;
    const k = this.table.cold.k;
    const { s, r, strs } = this;
    switch (i) {
      case 0:
        return typeof v === 'string' && (v === this.foundBy || this.ids.holds(s, v));
      case 1:
        return typeof v === 'string' && this.eventIds.holds(c.evt[s], v);
      case 2:
        return v === strs.get(k.type[r]);
      case 3:
        return v === strs.get(c.sub[s]);
      case 4:
        return v === strs.get(c.company[s]);
      case 5:
        return c.doc[s] < 0 ? v === null : v === strs.get(c.doc[s]);
      case 6:
        return v === strs.get(k.url[r]);
      case 7:
        return v === STATUSES[c.status[s]];
      case 8:
        return v === k.attempts[r];
      case 9:
        return sameCreated(v, c.created[s]);
      case 10:
        return sameTime(v, k.lastAt[r]);
      case 11:
        return sameNum(v, k.code[r]);
      case 12:
        return k.err[r] < 0 ? v === null : v === strs.get(k.err[r]);
      case 13:
        return sameNum(v, k.dur[r]);
      default:
        return sameNum(v, k.next[r]);
    }
  };
}
