// One delivery summary as a row of compact columns (delivery-table.ts): which summaries
// fit that form exactly, the columns, and a row read back as a summary.
import type { DeliveryStatus, EventType } from '@shared/api-types.js';
import { SUMMARY_KEYS, type DeliverySummary } from '../history-types.js';
import { isoMs, keyShape, msIso, numOrNull, reshaped } from './columns.js';

const TAIL = ['imported', 'origin', 'last_tunnel_offline'] as const;
export const STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'cancelled', 'skipped'];
export const OTHER_STATUS = 255;
const nanNull = (n: number): number | null => (Number.isNaN(n) ? null : n);
export const IMPORTED = 1;
export const CHECK = 2;
export const TUNNEL_OFFLINE = 4;

/** The last created_at read, and its time: the deliveries of one event, recorded in a row, share it. */
let lastCreated: unknown;
let lastCreatedMs = NaN;

/** numbers()' answer: created, last attempt, status code, duration, next attempt (NaN: null). Reused call to call. */
export const NUMS = new Float64Array(5);

/** Puts the compact form's numbers in NUMS; false if the summary does not fit that form exactly. */
export function numbers(v: DeliverySummary): boolean {
  if (v.created_at !== lastCreated) lastCreatedMs = isoMs((lastCreated = v.created_at));
  const created = lastCreatedMs;
  const lastAt = v.last_attempt_at === null ? NaN : isoMs(v.last_attempt_at);
  const code = numOrNull(v.last_status_code);
  const dur = numOrNull(v.last_duration_ms);
  const next = numOrNull(v.next_attempt_at);
  if (Number.isNaN(created) || (Number.isNaN(lastAt) && v.last_attempt_at !== null)) return false;
  if (code === undefined || dur === undefined || next === undefined) return false;
  NUMS[0] = created;
  NUMS[1] = lastAt;
  NUMS[2] = code;
  NUMS[3] = dur;
  NUMS[4] = next;
  return true;
}

/** The summary's key order for the compact form (null: the usual one; see keyShape), or undefined if it does not fit that form. */
export function shapeOf(v: DeliverySummary): string | null | undefined {
  const shape = keyShape(v, SUMMARY_KEYS, TAIL);
  return shape !== undefined && fits(v) ? shape : undefined;
}

function fits(v: DeliverySummary): boolean {
  return (
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

/** The columns every delivery keeps in memory: what listing, paging, filtering and lookup need (DeliveryTable.c). */
export function hotColumns(cap: number) {
  const f64 = () => new Float64Array(cap);
  const i32 = () => new Int32Array(cap);
  return {
    seq: f64(),
    created: f64(),
    /** The id of the segment holding the base record. */
    baseSeg: i32(),
    /** Numbers in the event-id interner. */
    evt: i32(),
    /** Numbers in the string interner (-1: null). */
    sub: i32(),
    company: i32(),
    doc: i32(),
    /** The first node of its attempts' chain in the LocPool (-1: none; the last is found by walking it). */
    aHead: i32(),
    status: new Uint8Array(cap),
    flags: new Uint8Array(cap),
  };
}

/**
 * The rest of a summary, kept in memory only while it may change or its segment has no
 * index yet (history/cold-rows.ts): one row of these per such delivery, else read back
 * from the closed segment's sidecar.
 */
export function coldColumns(cap: number) {
  const f64 = () => new Float64Array(cap);
  const i32 = () => new Int32Array(cap);
  return {
    lastAt: f64(),
    code: f64(),
    dur: f64(),
    next: f64(),
    /** Numbers in the string interner (-1: null). */
    type: i32(),
    url: i32(),
    err: i32(),
    /** The key order when not the usual one (a string: see keyShape). */
    shape: i32(),
    attempts: i32(),
  };
}

export type ColdColumns = ReturnType<typeof coldColumns>;
export const COLD_NUMBER_COLUMNS = ['lastAt', 'code', 'dur', 'next', 'attempts'] as const;
export const COLD_STRING_COLUMNS = ['type', 'url', 'err', 'shape'] as const;

/** Every column of a summary (a sidecar's rows). */
export function deliveryColumns(cap: number) {
  return { ...hotColumns(cap), ...coldColumns(cap) };
}

export type DeliveryColumns = ReturnType<typeof deliveryColumns>;

/** Columns copied as they are between a table and its sidecar. */
export const NUMBER_COLUMNS = ['seq', 'created', 'lastAt', 'code', 'dur', 'next', 'attempts', 'status', 'flags'] as const;
/** Columns of numbers in the string interner (-1: null). */
export const STRING_COLUMNS = ['sub', 'company', 'doc', 'type', 'url', 'err', 'shape'] as const;
/** What a row needs: the columns above and `evt` (a number in the event-id interner). */
export type RowColumns = Pick<DeliveryColumns, (typeof NUMBER_COLUMNS)[number] | (typeof STRING_COLUMNS)[number] | 'evt'>;

/**
 * Row k of compact columns as a summary; `str` and `evt` give the strings behind the
 * numbers. The cold fields come from row `r` of `kc` (strings through `kstr`): the
 * same columns by default, a cold row or a sidecar's for DeliveryTable.
 */
export function decodeRow(
  c: Omit<RowColumns, keyof ColdColumns>,
  k: number,
  id: string,
  str: (i: number) => string,
  evt: (i: number) => string,
  kc: ColdColumns = c as RowColumns,
  r = k,
  kstr = str,
): DeliverySummary {
  const v: DeliverySummary = {
    id,
    event_id: evt(c.evt[k]),
    event_type: kstr(kc.type[r]) as EventType,
    subscription_id: str(c.sub[k]),
    company_id: str(c.company[k]),
    document_id: c.doc[k] < 0 ? null : str(c.doc[k]),
    url: kstr(kc.url[r]),
    status: STATUSES[c.status[k]],
    attempts: kc.attempts[r],
    created_at: msIso(c.created[k]) as string,
    last_attempt_at: msIso(kc.lastAt[r]),
    last_status_code: nanNull(kc.code[r]),
    last_error: kc.err[r] < 0 ? null : kstr(kc.err[r]),
    last_duration_ms: nanNull(kc.dur[r]),
    next_attempt_at: nanNull(kc.next[r]),
  };
  const f = c.flags[k];
  if (f & IMPORTED) v.imported = true;
  if (f & CHECK) v.origin = 'check';
  if (f & TUNNEL_OFFLINE) v.last_tunnel_offline = true;
  return kc.shape[r] < 0 ? v : reshaped(v, kstr(kc.shape[r]));
}
