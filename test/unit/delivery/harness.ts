// Test harness for the delivery engine: a real Store and a real history log in a temp
// folder, real HTTP receivers on 127.0.0.1 port 0, and the outbox step the domain
// performs (event + pending delivery rows + history summaries in one mutation, one
// commit, then wake) written out here so these tests do not depend on domain code.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig, type BackendConfig } from '../../../src-main/backend/config.js';
import { Store } from '../../../src-main/backend/store/store.js';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { ChangeBus } from '../../../src-main/backend/bus.js';
import { newId } from '../../../src-main/backend/ids.js';
import type { PendingDelivery, SubscriptionRecord } from '../../../src-main/backend/store/schema.js';
import { createDeliveryEngine } from '../../../src-main/backend/delivery/engine.js';
import type { DeliveryEngine } from '../../../src-main/backend/delivery/engine-types.js';
import { generateSecret } from '../../../src-main/backend/delivery/signing.js';
import type { Change } from '@shared/api-types.js';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  server: Server;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1:0 that records every request and answers with `handle`. */
export async function startReceiver(
  handle: (req: Received, res: ServerResponse, raw: IncomingMessage) => void = (_r, res) => res.end('ok'),
): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      handle(r, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface Harness {
  dir: string;
  config: BackendConfig;
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  changes: Change[];
  engine: DeliveryEngine;
  /** Adds a subscription (as the domain does) and commits it. */
  subscribe(url: string): Promise<SubscriptionRecord>;
  /** The domain's outbox step for one event to the given subscriptions; returns the deliveries. */
  emit(subs: SubscriptionRecord[], data?: Record<string, unknown>): Promise<PendingDelivery[]>;
  /** Stops the engine and closes store and history (the folder stays). */
  shutdown(): Promise<void>;
  /** Opens store and history again from the same folder, with a new engine (not started). */
  reopen(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createHarness(overrides: Partial<BackendConfig> = {}, now?: () => number): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'countersign-delivery-'));
  const config = testConfig(dir, { retrySchedule: [0.05, 0.05], deliveryTimeoutMs: 2000, ...overrides });
  const changes: Change[] = [];
  let open = false;
  const h = { dir, config, changes } as Harness;

  async function build() {
    h.store = new Store(dir);
    h.history = createHistoryLog({ dir: join(dir, 'history'), cap: config.historyCap });
    h.bus = new ChangeBus();
    h.bus.subscribe((c) => changes.push(c));
    await h.store.open();
    await h.history.open();
    h.store.alsoFlush(() => h.history.flush());
    h.engine = createDeliveryEngine({ store: h.store, history: h.history, bus: h.bus, config, now });
    open = true;
  }
  await build();
  if (!h.store.data.companies.some((c) => c.id === 'co_test'))
    h.store.data.companies.push({ id: 'co_test', name: 'Test', created_at: new Date().toISOString() });

  h.subscribe = async (url) => {
    const sub: SubscriptionRecord = {
      public_id: newId('wh'),
      company_id: 'co_test',
      url,
      type: 'all',
      status: 'enabled',
      secret_key: generateSecret(),
      created_at: new Date().toISOString(),
    };
    h.store.addSubscription(sub);
    await h.store.commit();
    return sub;
  };

  h.emit = async (subs, data = { document: { public_id: 'doc_1', title: 'Lease ✓' } }) => {
    const id = newId('evt');
    const timestamp = new Date().toISOString();
    const body = JSON.stringify({ id, type: 'document.completed', timestamp, data });
    h.history.recordEvent(
      { id, company_id: 'co_test', type: 'document.completed', timestamp, document_id: 'doc_1', subscription_id: null },
      body,
    );
    const t = Date.now();
    const rows = subs.map((s): PendingDelivery => ({
      id: newId('msg'),
      event_id: id,
      subscription_id: s.public_id,
      company_id: 'co_test',
      event_type: 'document.completed',
      document_id: 'doc_1',
      attempts: 0,
      next_attempt_at: t,
      created_at: timestamp,
    }));
    h.store.data.pending_events.push({ id, company_id: 'co_test', type: 'document.completed', timestamp, document_id: 'doc_1', body });
    h.store.data.pending_deliveries.push(...rows);
    for (const r of rows) {
      h.history.recordDelivery({
        id: r.id,
        event_id: id,
        event_type: r.event_type,
        subscription_id: r.subscription_id,
        company_id: 'co_test',
        document_id: 'doc_1',
        url: h.store.subscriptions.get(r.subscription_id)!.url,
        status: 'pending',
        attempts: 0,
        created_at: timestamp,
        last_attempt_at: null,
        last_status_code: null,
        last_error: null,
        last_duration_ms: null,
        next_attempt_at: t,
      });
    }
    await h.store.commit();
    h.engine.wake();
    return rows;
  };

  h.shutdown = async () => {
    if (!open) return;
    open = false;
    await h.engine.stop();
    await h.store.close();
    await h.history.close();
  };
  h.reopen = async () => {
    await h.shutdown();
    await build();
  };
  h.cleanup = async () => {
    await h.shutdown();
    await rm(dir, { recursive: true, force: true });
  };
  return h;
}

/** Polls until `check` returns true (or throws after `ms`). */
export async function until(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
