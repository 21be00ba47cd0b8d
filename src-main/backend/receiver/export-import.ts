// One file with a company's delivery log (events, deliveries, attempts) and the
// receiver's inboxes and captures, for offline demos and bug reports; and its import.
// Guards against secrets leaving in the file: inboxes carry only a fingerprint; every
// credential header (Authorization, cookies, API keys, tokens…: the one rule,
// src-shared/credential-headers.ts) of a capture, an attempt or an answer has its value
// removed; and as a last line of defence every known secret (pasted inbox secrets,
// subscription secret_keys, with and without the whsec_ prefix) is replaced wherever it
// appears in the text, e.g. echoed in a captured body. Imports are validated and never bring a
// secret back; importing the same file twice adds nothing the second time.
import { forwardTargetProblem } from './forward-target.js';
import type { Store } from '../store/store.js';
import type { AttemptRecord, DeliverySummary, EventSummary, HistoryLog } from '../store/history-types.js';
import { importedAttempt, importedDelivery, importedEvent, importedForward } from './import-records.js';
import { validationError } from '../errors.js';
import { parseResponseMode } from './inbox-input.js';
import type { Receiver } from './receiver.js';
import { fingerprint } from './verdict.js';
import { DEFAULT_RESPONSE, type Capture } from './types.js';
import type { BodyFields, CaptureFields, ImportResult } from '@shared/receiver-types.js';
import { withoutCredentialPairs, withoutCredentials } from '@shared/credential-headers.js';
import type { ResponseMode } from '@shared/receiver-types.js';

export const EXPORT_FORMAT = 'countersign-export';
export const EXPORT_VERSION = 1;
export const SECRET_REMOVED = '[secret removed]';

/** A capture in the file: the body as text when it is UTF-8, else as base64. */
export type ExportedCapture = CaptureFields & BodyFields;

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  company_id: string;
  inboxes: { id: string; name: string; created_at: string; response: ResponseMode; secret_fingerprint: string | null }[];
  captures: ExportedCapture[];
  events: { event: EventSummary; body: string | null }[];
  deliveries: { delivery: DeliverySummary; attempts: AttemptRecord[] }[];
}

export function bodyFields(body: Buffer): BodyFields {
  const text = body.toString('utf8');
  return Buffer.from(text, 'utf8').equals(body)
    ? { body_text: text, body_base64: null }
    : { body_text: null, body_base64: body.toString('base64') };
}

function knownSecrets(store: Store, receiver: Receiver): string[] {
  const out = new Set<string>();
  const add = (s: string | null | undefined) => {
    if (!s || s.length < 12) return;
    out.add(s);
    if (s.startsWith('whsec_') && s.length - 6 >= 12) out.add(s.slice(6));
  };
  for (const s of store.subscriptions.values()) add(s.secret_key);
  for (const i of receiver.inboxes.all()) add(i.secret);
  // Longest first, so a prefixed secret is replaced whole before its bare part.
  return [...out].sort((a, b) => b.length - a.length);
}

export async function buildExport(deps: {
  store: Store;
  receiver: Receiver;
  history: HistoryLog;
  companyId: string;
  maxDeliveries?: number;
}): Promise<string> {
  const { store, receiver, history, companyId } = deps;
  const max = deps.maxDeliveries ?? 10_000;
  const deliveries: ExportFile['deliveries'] = [];
  const eventIds = new Set<string>();
  let after: string | undefined;
  while (deliveries.length < max) {
    const page = history.listDeliveries({ company_id: companyId }, { limit: 100, starting_after: after });
    for (const d of page.data) {
      if (deliveries.length >= max) break;
      deliveries.push({ delivery: d, attempts: (await history.getAttempts(d.id)).map(attemptWithoutCredentials) });
      eventIds.add(d.event_id);
    }
    if (!page.has_more || page.data.length === 0) break;
    after = page.data[page.data.length - 1].id;
  }
  const events: ExportFile['events'] = [];
  for (const id of eventIds) {
    const event = history.getEvent(id);
    if (event) events.push({ event, body: (await history.getEventBody(id)) ?? null });
  }
  const inboxes = receiver.inboxes.all().map((i) => ({
    id: i.id,
    name: i.name,
    created_at: i.created_at,
    // An imported inbox's own mode, not yet turned on here, travels on as its mode.
    response: i.imported_response ?? i.response,
    secret_fingerprint: i.secret ? fingerprint(i.secret) : null,
  }));
  const captures: ExportedCapture[] = [];
  for (const i of inboxes) {
    for (const c of receiver.captures.list(i.id)) {
      const { body, ...rest } = c;
      const response = { ...rest.response, headers: withoutCredentials(rest.response.headers) };
      captures.push({ ...rest, headers: withoutCredentialPairs(rest.headers), response, ...bodyFields(body) });
    }
  }
  const file: ExportFile = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date(receiver.clock.now()).toISOString(),
    company_id: companyId,
    inboxes,
    captures,
    events,
    deliveries,
  };
  let text = JSON.stringify(file);
  // Secrets are base64 plus "whsec_": no character that JSON escapes, so a plain
  // replacement keeps the text valid JSON.
  for (const s of knownSecrets(store, receiver)) text = text.split(s).join(SECRET_REMOVED);
  return text;
}

/** An attempt as exported: the request's and the answer's credential headers removed (credential-headers.ts). */
function attemptWithoutCredentials(a: AttemptRecord): AttemptRecord {
  return {
    ...a,
    request: { ...a.request, headers: withoutCredentials(a.request.headers) },
    response: a.response && { ...a.response, headers: withoutCredentials(a.response.headers) },
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function toCapture(raw: unknown, inboxId: string): Capture | null {
  if (
    !isObj(raw) ||
    !isStr(raw.id) ||
    !/^cap_[0-9A-Za-z]+$/.test(raw.id) ||
    !isStr(raw.method) ||
    !isStr(raw.path) ||
    !isStr(raw.received_at)
  )
    return null;
  if (!Array.isArray(raw.headers) || !raw.headers.every((h) => Array.isArray(h) && h.length === 2 && isStr(h[0]) && isStr(h[1])))
    return null;
  const body = isStr(raw.body_base64)
    ? Buffer.from(raw.body_base64, 'base64')
    : isStr(raw.body_text)
      ? Buffer.from(raw.body_text, 'utf8')
      : Buffer.alloc(0);
  const response = isObj(raw.response) ? raw.response : {};
  return {
    id: raw.id,
    inbox_id: inboxId,
    received_at: raw.received_at,
    method: raw.method.slice(0, 20),
    path: raw.path,
    headers: raw.headers as [string, string][],
    body,
    size: typeof raw.size === 'number' ? raw.size : body.length,
    body_truncated: raw.body_truncated === true,
    remote_address: isStr(raw.remote_address) ? raw.remote_address : null,
    webhook_id: isStr(raw.webhook_id) ? raw.webhook_id : null,
    event_type: isStr(raw.event_type) ? raw.event_type : null,
    attempt_for_id: typeof raw.attempt_for_id === 'number' ? raw.attempt_for_id : 1,
    duplicate: raw.duplicate === true,
    verdict: isObj(raw.verdict) ? (raw.verdict as unknown as Capture['verdict']) : null,
    response: {
      status: typeof response.status === 'number' ? response.status : null,
      headers: isObj(response.headers) ? (response.headers as Record<string, string>) : {},
      body: isStr(response.body) ? response.body : '',
      delay_ms: typeof response.delay_ms === 'number' ? response.delay_ms : 0,
      hang: response.hang === true,
    },
    ...(importedForward(raw.forward) ? { forward: importedForward(raw.forward) } : {}),
  };
}

export async function applyImport(
  deps: { receiver: Receiver; history: HistoryLog; store: Store; companyId: string },
  file: unknown,
): Promise<ImportResult> {
  const { receiver, history, companyId } = deps;
  if (!isObj(file) || file.format !== EXPORT_FORMAT)
    throw validationError([{ field: 'format', message: `must be "${EXPORT_FORMAT}" (a file made by Export)` }]);
  if (file.version !== EXPORT_VERSION) throw validationError([{ field: 'version', message: `must be ${EXPORT_VERSION}` }]);
  for (const key of ['inboxes', 'captures', 'events', 'deliveries'] as const) {
    if (!Array.isArray(file[key])) throw validationError([{ field: key, message: 'must be a list' }]);
  }
  const r: ImportResult = { inboxes_created: 0, captures_added: 0, events_added: 0, deliveries_added: 0, already_present: 0, skipped: 0 };
  for (const raw of file.inboxes as unknown[]) {
    if (!isObj(raw) || !isStr(raw.id) || !/^inb_[0-9A-Za-z]{1,64}$/.test(raw.id)) {
      r.skipped++;
      continue;
    }
    if (receiver.inboxes.record(raw.id)) {
      r.already_present++;
      continue;
    }
    let response: ResponseMode = { ...DEFAULT_RESPONSE };
    try {
      response = parseResponseMode(raw.response);
      // A file can name any forward target: one this machine would refuse becomes the default mode.
      if (response.mode === 'forward' && forwardTargetProblem(response.url, receiver.limits.forwardToAnyHost))
        response = { ...DEFAULT_RESPONSE };
    } catch {
      // An unreadable mode falls back to the default rather than losing the inbox.
    }
    const name = isStr(raw.name) && raw.name.trim() ? raw.name.trim().slice(0, 100) : raw.id;
    // It answers with the default until the user turns its own mode on: an imported inbox
    // does not start failing (or forwarding) requests by itself (docs/receiver.md).
    const own = JSON.stringify(response) === JSON.stringify(DEFAULT_RESPONSE) ? undefined : response;
    await receiver.inboxes.create({ name, response: { ...DEFAULT_RESPONSE } }, raw.id, undefined, own);
    r.inboxes_created++;
  }
  for (const raw of file.captures as unknown[]) {
    const inboxId = isObj(raw) && isStr(raw.inbox_id) ? raw.inbox_id : '';
    const c = receiver.inboxes.record(inboxId) ? toCapture(raw, inboxId) : null;
    if (c && receiver.getCapture(c.id)) r.already_present++;
    else if (c && receiver.addCapture(c)) r.captures_added++;
    else r.skipped++;
  }
  for (const item of file.events as unknown[]) {
    const raw = isObj(item) ? item : {};
    const e = importedEvent(raw.event, companyId);
    if (!e) r.skipped++;
    else if (history.getEvent(e.id)) r.already_present++;
    else {
      history.recordEvent(e, isStr(raw.body) ? raw.body : '');
      r.events_added++;
    }
  }
  for (const item of file.deliveries as unknown[]) {
    const raw = isObj(item) ? item : {};
    const d = importedDelivery(raw.delivery, companyId);
    if (!d) {
      r.skipped++;
      continue;
    }
    if (history.getDelivery(d.id)) {
      r.already_present++;
      continue;
    }
    // Imported deliveries are a record of the past: shown, never attempted (and marked so).
    history.recordDelivery(d);
    const attempts = Array.isArray(raw.attempts) ? (raw.attempts as unknown[]) : [];
    for (const a of attempts) {
      const attempt = importedAttempt(a, d.id);
      if (attempt) history.recordAttempt(attempt);
      else r.skipped++;
    }
    r.deliveries_added++;
  }
  await history.flush();
  await receiver.flush();
  return r;
}
