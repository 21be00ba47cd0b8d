// Test harness for the delivery engine: a real Store and a real history log in a temp
// folder, real HTTP receivers on 127.0.0.1 port 0, and the real outbox, which the tests
// use as the domain does (enqueue + one commit; cancelFor + the subscription's removal
// + one commit), so these tests do not depend on domain code.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendConfig } from '../../../src-main/backend/config.js';
import { testConfig } from '../../helpers/config.js';
import { Store } from '../../../src-main/backend/store/store.js';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { ChangeBus } from '../../../src-main/backend/bus.js';
import { systemClock, type Clock } from '../../../src-main/backend/clock.js';
import { newId } from '../../../src-main/backend/ids.js';
import type { PendingDelivery, SubscriptionRecord } from '../../../src-main/backend/store/schema.js';
import type { DeepReadonly } from '../../../src-main/backend/store/table.js';
import { Outbox } from '../../../src-main/backend/delivery/outbox.js';
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

export type Sub = DeepReadonly<SubscriptionRecord>;
export type Row = DeepReadonly<PendingDelivery>;

export interface Harness {
  dir: string;
  config: BackendConfig;
  clock: Clock;
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  changes: Change[];
  outbox: Outbox;
  engine: DeliveryEngine;
  /** Adds a subscription (as the domain does) and commits it. */
  subscribe(url: string): Promise<Sub>;
  /** One event to the given subscriptions through the outbox, committed; returns the deliveries. */
  emit(subs: readonly Sub[], data?: Record<string, unknown>): Promise<Row[]>;
  /** What the domain does on DELETE /v2/webhooks/{id}: the outbox cancels, the subscription goes, one commit. */
  deleteSubscription(id: string): Promise<void>;
  /** Stops the engine and closes store and history (the folder stays). */
  shutdown(): Promise<void>;
  /** Opens store and history again from the same folder, with a new outbox and engine (not started). */
  reopen(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createHarness(overrides: Partial<BackendConfig> = {}, clock: Clock = systemClock): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'countersign-delivery-'));
  const config = testConfig(dir, { retrySchedule: [0.05, 0.05], deliveryTimeoutMs: 2000, ...overrides });
  const changes: Change[] = [];
  let open = false;
  const h = { dir, config, changes, clock } as Harness;

  async function build() {
    h.store = new Store(dir);
    h.history = createHistoryLog({ dir: join(dir, 'history'), cap: config.historyCap, clock });
    h.bus = new ChangeBus();
    h.bus.subscribe((c) => changes.push(c));
    await h.store.open();
    await h.history.open();
    h.store.attachLog(h.history);
    h.outbox = new Outbox({ store: h.store, history: h.history, clock });
    h.engine = createDeliveryEngine({ store: h.store, outbox: h.outbox, bus: h.bus, config, clock });
    open = true;
  }
  await build();
  if (!h.store.companies.has('co_test')) h.store.companies.insert({ id: 'co_test', name: 'Test', created_at: new Date().toISOString() });

  h.subscribe = async (url) => {
    const sub = h.store.subscriptions.insert({
      public_id: newId('wh'),
      company_id: 'co_test',
      url,
      type: 'all',
      status: 'enabled',
      secret_key: generateSecret(),
      created_at: new Date().toISOString(),
    });
    await h.store.commit();
    return sub;
  };

  h.emit = async (subs, data = { document: { public_id: 'doc_1', title: 'Lease ✓' } }) => {
    const { deliveries } = h.outbox.enqueue({ company_id: 'co_test', type: 'document.completed', document_id: 'doc_1', data }, subs);
    await h.store.commit();
    return deliveries;
  };

  h.deleteSubscription = async (id) => {
    h.outbox.cancelFor(id);
    h.store.subscriptions.remove(id);
    await h.store.commit();
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
