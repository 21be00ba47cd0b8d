// Builders for history log tests: valid records with one thing changed per test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { crc32 } from 'node:zlib';
import { decodeSidecar, sidecarArrays } from '../../../src-main/backend/store/history/sidecar-format.js';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type {
  AttemptRecord,
  DeliverySummary,
  EventSummary,
  HistoryLog,
  HistoryLogOptions,
} from '../../../src-main/backend/store/history-types.js';
import type { HeldIndex } from '../../../src-main/backend/store/history/held-index.js';
import type { HistoryIndex } from '../../../src-main/backend/store/history/index-state.js';

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'countersign-history-'));
  return { dir: join(root, 'history'), cleanup: () => rm(root, { recursive: true, force: true }) };
}

export function event(over: Partial<EventSummary> = {}): EventSummary {
  return {
    id: 'evt_1',
    company_id: 'co_a',
    type: 'document.updated',
    timestamp: '2025-01-01T00:00:00.000Z',
    document_id: 'doc_1',
    subscription_id: null,
    ...over,
  };
}

export function delivery(over: Partial<DeliverySummary> = {}): DeliverySummary {
  return {
    id: 'msg_1',
    event_id: 'evt_1',
    event_type: 'document.updated',
    subscription_id: 'wh_1',
    company_id: 'co_a',
    document_id: 'doc_1',
    url: 'http://127.0.0.1:9/hook',
    status: 'pending',
    attempts: 0,
    created_at: '2025-01-01T00:00:00.000Z',
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    last_duration_ms: null,
    next_attempt_at: null,
    ...over,
  };
}

export function attempt(over: Partial<AttemptRecord> = {}): AttemptRecord {
  return {
    delivery_id: 'msg_1',
    subscription_id: 'wh_1',
    attempt: 1,
    started_at: '2025-01-01T00:00:01.000Z',
    duration_ms: 12,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9/hook',
      headers: { 'content-type': 'application/json', 'webhook-id': over.delivery_id ?? 'msg_1' },
      body: '{"id":"evt_1"}',
    },
    response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok', truncated: false },
    error: null,
    succeeded: true,
    next_attempt_at: null,
    rule: 'success',
    rule_detail: '200: delivered',
    ...over,
  };
}

/**
 * For a test file: `setup(opts)` makes a temporary history folder and opens logs on it
 * with `defaults` then `opts` (then `over`, per open); every log is closed and every
 * folder removed after each test.
 */
/** The summary the engine makes of `old` after attempt `a` (as delivery/attempt-log.ts logAttempt does). */
export function summaryAfter(old: DeliverySummary, a: AttemptRecord): DeliverySummary {
  return {
    ...old,
    status: a.succeeded ? 'succeeded' : a.next_attempt_at === null ? 'failed' : 'pending',
    attempts: a.attempt,
    last_attempt_at: a.started_at,
    last_status_code: a.response ? a.response.status : null,
    last_error: a.error,
    last_duration_ms: a.duration_ms,
    next_attempt_at: a.next_attempt_at,
  };
}

/** The parts of a log the history tests look inside (private fields, reached on purpose). */
export interface LogInternals {
  idx: HistoryIndex;
  held: HeldIndex;
  bodies: { readonly bytes: number };
  retention: { idle(): Promise<void> };
  sidecars: { idle(): Promise<void> };
}
export const internals = (log: HistoryLog) => log as unknown as LogInternals;

/** Waits until the log is settled: everything written, retention done, every closed segment's sidecar written. */
export async function settle(log: HistoryLog): Promise<void> {
  await log.flush();
  await internals(log).retention.idle();
  await internals(log).sidecars.idle();
}

export function historyLogs(defaults: Omit<HistoryLogOptions, 'dir'>) {
  const cleanups: (() => Promise<void>)[] = [];
  const logs: HistoryLog[] = [];
  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close().catch(() => {});
    for (const c of cleanups.splice(0)) await c();
  });
  return async function setup(opts: Partial<HistoryLogOptions> = {}) {
    const t = await tempDir();
    cleanups.push(t.cleanup);
    const open = async (over: Partial<HistoryLogOptions> = {}) => {
      const log = createHistoryLog({ dir: t.dir, ...defaults, ...opts, ...over });
      logs.push(log);
      const warnings = await log.open();
      return { log, warnings };
    };
    const make = async (over: Partial<HistoryLogOptions> = {}) => (await open(over)).log;
    return { dir: t.dir, open, make };
  };
}

/** A sidecar as version 2 wrote it (every column its typed array's bytes), written here independently of the service's encoder. */
export function asVersion2(buf: Buffer): Buffer {
  const data = decodeSidecar(buf);
  if (typeof data === 'string') throw new Error(data);
  const pad = (n: number) => Buffer.alloc((8 - (n % 8)) % 8);
  const cols: [string, number, number][] = [];
  const parts: Buffer[] = [];
  let at = 0;
  for (const [name, arr] of sidecarArrays(data)) {
    const bytes = Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength);
    cols.push([name, at, arr.length]);
    parts.push(bytes, pad(bytes.length));
    at += bytes.length + pad(bytes.length).length;
  }
  const head = Buffer.from(JSON.stringify({ ...data.header, cols }));
  const counts = Buffer.alloc(8);
  counts.writeUInt32LE(data.header.rows, 0);
  counts.writeUInt32LE(head.length, 4);
  const body = Buffer.concat([Buffer.from('CSIDX02\n'), counts, head, pad(16 + head.length), ...parts]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32LE(crc32(body));
  return Buffer.concat([body, sum]);
}
