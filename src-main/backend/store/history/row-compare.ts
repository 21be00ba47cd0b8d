// A delivery's stored row compared in place with the summary an attempt made of it
// (attempt-bytes.ts changeBitsFrom): which of the fifteen fields changed, without
// reading the row back as a summary first. Reading it (decodeRow: an object, two ISO
// times, the id and event id as new strings) cost ~0.5 KB and a few µs per attempt, only
// to be compared and thrown away.
import type { AttemptRecord, DeliverySummary } from '../history-types.js';
import { changeBitsFrom } from './attempt-bytes.js';
import { isoMs, msIso } from './columns.js';
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

/** Whether `v` is the number stored as `n` (NaN: null). */
const sameNum = (v: unknown, n: number): boolean => (Number.isNaN(n) ? v === null : v === n);

export class RowCompare {
  /** The row being compared (changeBits sets it; `same` reads it). */
  private s = 0;
  /** Its cold row (DeliveryTable.coldRow). */
  private r = 0;

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
   */
  changeBits(s: number, a: AttemptRecord, d: DeliverySummary): number | undefined {
    if (!this.table.isUsual(s)) return undefined;
    this.s = s;
    this.r = this.table.coldRow(s);
    return changeBitsFrom(a, d, this.same);
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
        return typeof v === 'string' && this.ids.holds(s, v);
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
        return sameTime(v, c.created[s]);
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
