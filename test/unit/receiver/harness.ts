// A real receiver on loopback for unit tests: a fresh temp data directory, the real
// store and history log, and the receiver on its own hardened listener (port 0).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '../../helpers/config.js';
import { ChangeBus } from '../../../src-main/backend/bus.js';
import { Store } from '../../../src-main/backend/store/store.js';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { createReceiver, type Receiver } from '../../../src-main/backend/receiver/receiver.js';
import { createReceiverServer } from '../../../src-main/backend/receiver/server.js';
import type { Capture, ReceiverLimits } from '../../../src-main/backend/receiver/types.js';

export interface ReceiverHarness {
  dir: string;
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  receiver: Receiver;
  server: Server;
  base: string;
  /** Stops the listener and the store (keeps the folder unless `remove`). */
  stop(remove?: boolean): Promise<void>;
}

export async function startReceiver(opts: { dir?: string; limits?: Partial<ReceiverLimits> } = {}): Promise<ReceiverHarness> {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'countersign-receiver-')));
  const store = new Store(dir);
  await store.open();
  const history = createHistoryLog({ dir: join(dir, 'history'), cap: 1000 });
  await history.open();
  const bus = new ChangeBus();
  let port = 0;
  const receiver = createReceiver({
    store,
    bus,
    history,
    config: testConfig(dir),
    localUrl: () => `http://127.0.0.1:${port}`,
    limits: opts.limits,
  });
  receiver.load();
  const server = createReceiverServer(receiver);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  return {
    dir,
    store,
    history,
    bus,
    receiver,
    server,
    base: `http://127.0.0.1:${port}`,
    async stop(remove = true) {
      receiver.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await receiver.flush();
      await store.close();
      await history.close();
      if (remove) await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Sent {
  status: number;
  headers: Headers;
  text: string;
  capture: Capture | undefined;
}

/** POSTs raw bytes; returns status, headers and the capture the receiver made. */
export async function send(
  h: ReceiverHarness,
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<Sent> {
  const res = await fetch(h.base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: method === 'GET' ? undefined : body,
  });
  const text = await res.text();
  const captureId = res.headers.get('x-countersign-capture');
  return { status: res.status, headers: res.headers, text, capture: captureId ? h.receiver.getCapture(captureId) : undefined };
}
