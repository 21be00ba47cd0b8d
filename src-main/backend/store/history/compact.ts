// Compact (positional) forms of attempts and delivery summaries for the history log's
// lines (format in records.ts). A record is written compactly only when decoding gives
// it back exactly: the same own keys in the same order with the same values, so the
// inspector shows what was sent and received to the byte. Anything else (an imported
// record of another shape, odd values) is written as plain JSON, as before.
import { SUMMARY_KEYS, type AttemptRecord, type DeliverySummary, type EventSummary } from '../history-types.js';
import { EVENT_KEYS } from './event-table.js';
import { decodeHeaders, isStringRecord, setOwn } from './headers-codec.js';
import { isScalar, jsonString, jsonValue, memoFor } from './json-text.js';

/** An attempt's request body stored as the event line at this offset of the same segment (bytes, no newline). */
export interface BodyRef {
  off: number;
  len: number;
}

/** An attempt's keys, in the order of its compact array (attempt-bytes.ts writeAttempt, decodeAttempt). */
export const ATTEMPT_KEYS = [
  'delivery_id',
  'subscription_id',
  'attempt',
  'started_at',
  'duration_ms',
  'request',
  'response',
  'error',
  'succeeded',
  'next_attempt_at',
  'rule',
  'rule_detail',
] as const;
const REQUEST_KEYS = ['method', 'url', 'headers', 'body'];
const RESPONSE_KEYS = ['status', 'headers', 'body', 'truncated'];

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Whether `o`'s own keys start with `keys` in that order (`exact`: and are only those). */
export function hasKeys(o: object, keys: readonly string[], exact: boolean): boolean {
  let i = 0;
  for (const k in o) {
    if (i < keys.length) {
      if (k !== keys[i]) return false;
    } else if (exact) return false;
    i++;
  }
  return i >= keys.length;
}

export const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (v as object).constructor === Object;

export function canCompactAttempt(a: AttemptRecord): boolean {
  const req: unknown = a.request;
  const res: unknown = a.response;
  return (
    isPlain(a) &&
    hasKeys(a, ATTEMPT_KEYS, false) &&
    typeof a.delivery_id === 'string' &&
    typeof a.subscription_id === 'string' &&
    isNum(a.attempt) &&
    typeof a.started_at === 'string' &&
    isNum(a.duration_ms) &&
    isPlain(req) &&
    hasKeys(req, REQUEST_KEYS, true) &&
    req.method === 'POST' &&
    typeof req.url === 'string' &&
    isStringRecord(req.headers) &&
    typeof req.body === 'string' &&
    (res === null ||
      (isPlain(res) &&
        hasKeys(res, RESPONSE_KEYS, true) &&
        isNum(res.status) &&
        isStringRecord(res.headers) &&
        typeof res.body === 'string' &&
        typeof res.truncated === 'boolean')) &&
    (a.error === null || typeof a.error === 'string') &&
    typeof a.succeeded === 'boolean' &&
    (a.next_attempt_at === null || isNum(a.next_attempt_at)) &&
    typeof a.rule === 'string' &&
    typeof a.rule_detail === 'string'
  );
}

/** Keys after the first `n` of `o`, as a JSON object after a comma, or '' if none. */
export function extrasJson(o: object, n: number): string {
  let i = 0;
  let extras: Record<string, unknown> | null = null;
  for (const k in o) {
    if (i++ < n) continue;
    extras ??= {};
    setOwn(extras, k, (o as Record<string, unknown>)[k]);
  }
  return extras ? ',' + JSON.stringify(extras) : '';
}

function copyExtras(to: Record<string, unknown>, extras: unknown): void {
  if (extras === undefined) return;
  if (!isPlain(extras)) throw new Error('attempt: bad extras');
  for (const k of Object.keys(extras)) setOwn(to, k, extras[k]);
}

/**
 * An attempt from its compact array. `body` is the request body when the array holds
 * a reference ([offset, length]) instead; with no body given, such an attempt is
 * returned with the reference in `ref` and an empty body, for the caller to fill in.
 */
export function decodeAttempt(x: unknown, deliveryId: string): { attempt: AttemptRecord; ref?: BodyRef } {
  if (!Array.isArray(x) || x.length < 13 || x.length > 14) throw new Error('attempt: not a compact attempt');
  const [sub, n, started, duration, url, reqHeaders, body, res, error, succeeded, next, rule, detail, extras] = x as unknown[];
  let ref: BodyRef | undefined;
  if (Array.isArray(body)) {
    if (body.length !== 2 || !isNum(body[0]) || !isNum(body[1])) throw new Error('attempt: bad body reference');
    ref = { off: body[0], len: body[1] };
  } else if (typeof body !== 'string') throw new Error('attempt: bad body');
  let response: AttemptRecord['response'] = null;
  if (res !== null) {
    if (!Array.isArray(res) || res.length !== 4) throw new Error('attempt: bad response');
    const [status, headers, resBody, truncated] = res as unknown[];
    response = {
      status: status as number,
      headers: decodeHeaders(headers, deliveryId),
      body: resBody as string,
      truncated: truncated as boolean,
    };
  }
  const attempt = {
    delivery_id: deliveryId,
    subscription_id: sub,
    attempt: n,
    started_at: started,
    duration_ms: duration,
    request: { method: 'POST', url, headers: decodeHeaders(reqHeaders, deliveryId), body: ref ? '' : body },
    response,
    error,
    succeeded,
    next_attempt_at: next,
    rule,
    rule_detail: detail,
  } as AttemptRecord;
  copyExtras(attempt as unknown as Record<string, unknown>, extras);
  return ref ? { attempt, ref } : { attempt };
}

/** `d` as a JSON array of its values in `keys` order (plus {later keys}), or plain JSON when its keys do not start so. */
function encodePositional(d: object, keys: readonly string[]): string {
  if (!isPlain(d) || !hasKeys(d, keys, false)) return JSON.stringify(d);
  let out = '[';
  const memo = memoFor(keys);
  for (let i = 0; i < keys.length; i++) {
    const json = memo.json(i, d[keys[i] as keyof typeof d]);
    if (json === undefined) return JSON.stringify(d); // a key JSON leaves out stays left out
    out += (i > 0 ? ',' : '') + json;
  }
  return out + extrasJson(d, keys.length) + ']';
}

/** encodePositional's output (parsed) as an object; undefined if it is neither form or has no string id first. */
function decodePositional(w: unknown, keys: readonly string[]): Record<string, unknown> | undefined {
  if (isPlain(w)) return typeof w.id === 'string' ? w : undefined;
  if (!Array.isArray(w) || w.length < keys.length || w.length > keys.length + 1 || typeof w[0] !== 'string') return undefined;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) out[keys[i]] = w[i];
  copyExtras(out, w[keys.length]);
  return out;
}

/** A summary as a JSON array of its values in SUMMARY_KEYS order (plus {later keys}), or plain JSON when its keys do not start so. */
export const encodeSummary = (d: DeliverySummary): string => encodePositional(d, SUMMARY_KEYS);

/** A summary from encodeSummary's output (parsed); undefined if it is neither form. */
export const decodeSummary = (w: unknown) => decodePositional(w, SUMMARY_KEYS) as DeliverySummary | undefined;

/** An event summary the same way, in EVENT_KEYS order. */
export const encodeEventSummary = (e: EventSummary): string => encodePositional(e, EVENT_KEYS);

export const decodeEventSummary = (v: unknown) => decodePositional(v, EVENT_KEYS) as EventSummary | undefined;

const summaryIndex = new Map<string, number>(SUMMARY_KEYS.map((k, i) => [k, i]));

/** One changed field: its SUMMARY_KEYS index (-1 for another key), its patch key, its new value and, once needed, its JSON (entryJson). */
type PatchEntry = { i: number; k: string; v: unknown; json: string | undefined };

const entryJson = (e: PatchEntry): string => (e.json ??= jsonValue(e.v) as string);

/** What changed from `old` to `d`, in `d`'s key order (see summaryPatch), or undefined. */
function patchEntries(old: DeliverySummary, d: DeliverySummary): PatchEntry[] | undefined {
  const oldKeys = Object.keys(old);
  if (!isPlain(d)) return undefined;
  let n = 0;
  const out: PatchEntry[] = [];
  for (const k in d) {
    if (n < oldKeys.length && oldKeys[n] !== k) return undefined;
    const v = (d as unknown as Record<string, unknown>)[k];
    const was = n < oldKeys.length ? (old as unknown as Record<string, unknown>)[k] : undefined;
    n++;
    if (v === was) continue;
    const wasObject = typeof was === 'object' && was !== null;
    const json = isScalar(v) && !wasObject ? undefined : jsonValue(v);
    const i = summaryIndex.get(k) ?? -1;
    if ((json === undefined && !isScalar(v)) || (i < 0 && /^\d+$/.test(k))) return undefined;
    if (wasObject && JSON.stringify(was) === json) continue;
    out.push({ i, k: i < 0 ? k : String(i), v, json });
  }
  return n < oldKeys.length ? undefined : out;
}

function patchJson(entries: PatchEntry[]): string {
  let out = '';
  for (const e of entries) out += `${out ? ',' : ''}${jsonString(e.k)}:${entryJson(e)}`;
  return `{${out}}`;
}

/**
 * What changed from `old` to `d`, as a JSON object keyed by SUMMARY_KEYS index (or by
 * name for other keys), or undefined when a patch cannot express it (a key went away or
 * moved: write the whole summary). '{}' means nothing changed.
 */
export function summaryPatch(old: DeliverySummary, d: DeliverySummary): string | undefined {
  const entries = patchEntries(old, d);
  return entries && patchJson(entries);
}

/** Summary fields (by SUMMARY_KEYS index) that the change after an attempt usually sets to what the attempt itself says. */
const FROM_ATTEMPT: [number, (a: AttemptRecord) => unknown][] = [
  [7, (a) => (a.succeeded ? 'succeeded' : a.next_attempt_at === null ? 'failed' : 'pending')],
  [8, (a) => a.attempt],
  [10, (a) => a.started_at],
  [11, (a) => (a.response === null ? null : a.response.status)],
  [12, (a) => a.error],
  [13, (a) => a.duration_ms],
  [14, (a) => a.next_attempt_at],
];
/** FROM_ATTEMPT by SUMMARY_KEYS index. */
export const fromAttempt: (((a: AttemptRecord) => unknown) | undefined)[] = [];
for (const [i, value] of FROM_ATTEMPT) fromAttempt[i] = value;

/**
 * The change from `old` to `d` made by attempt `a`, to be carried on the attempt's own
 * compact line: `,"m":<mask>` (bit k: field k takes the attempt's value, FROM_ATTEMPT)
 * and `,"p":{…}` (the other fields, as summaryPatch writes them), each left out when
 * empty; '' when nothing changed. Undefined when `a` has no compact line or no patch can
 * say the change (the caller writes a line of its own, as before).
 */
export function attemptPatchTail(a: AttemptRecord, old: DeliverySummary, d: DeliverySummary): string | undefined {
  if (!canCompactAttempt(a)) return undefined;
  const entries = patchEntries(old, d);
  if (!entries) return undefined;
  let mask = 0;
  let rest = '';
  for (const e of entries) {
    const value = e.i >= 0 ? fromAttempt[e.i] : undefined;
    const x = value ? value(a) : undefined;
    // The same value (the usual case) has the same JSON; anything else is compared as JSON.
    if (value && ((x === e.v && isScalar(x)) || jsonValue(x) === entryJson(e))) mask |= 1 << e.i;
    else rest += `${rest ? ',' : ''}${jsonString(e.k)}:${entryJson(e)}`;
  }
  return (mask ? `,"m":${mask}` : '') + (rest ? `,"p":{${rest}}` : '');
}

/** The patch an attempt line carries (attemptPatchTail), `attempt` being that line's attempt as read back; undefined if none. */
export function attemptPatch(attempt: AttemptRecord, m: unknown, p: unknown): Record<string, unknown> | undefined {
  if (m === undefined && p === undefined) return undefined;
  if ((m !== undefined && (typeof m !== 'number' || !Number.isInteger(m))) || (p !== undefined && !isPlain(p)))
    throw new Error('attempt: bad patch');
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(p ?? {})) setOwn(out, k, (p as Record<string, unknown>)[k]);
  for (const [i, value] of FROM_ATTEMPT) if (((m ?? 0) as number) & (1 << i)) out[String(i)] = value(attempt);
  return out;
}

/** `old` with a parsed patch applied (keys kept in place, new ones appended). */
export function applyPatch(old: DeliverySummary, patch: Record<string, unknown>): DeliverySummary {
  const out: Record<string, unknown> = { ...old };
  for (const k of Object.keys(patch)) {
    const name = /^\d+$/.test(k) ? SUMMARY_KEYS[Number(k)] : k;
    if (name === undefined) throw new Error('patch: unknown field');
    setOwn(out, name, patch[k]);
  }
  return out as unknown as DeliverySummary;
}
