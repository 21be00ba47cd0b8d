// The composition root: builds every part of the backend and is the only place that
// listens. The Electron entry and the headless entry are two thin callers of it;
// tests build one in-process on port 0. Never imports Electron.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { domainSettings, type BackendConfig } from './config.js';
import { Store } from './store/store.js';
import { createHistoryLog } from './store/history-log.js';
import type { HistoryLog } from './store/history-types.js';
import { ChangeBus } from './bus.js';
import { Domain } from './domain/domain.js';
import { createDeliveryEngine } from './delivery/engine.js';
import { FaultRegistry } from './delivery/faults.js';
import { Redirector } from './delivery/redirector.js';
import type { DeliveryEngine } from './delivery/engine-types.js';
import { Outbox } from './delivery/outbox.js';
import type { Clock } from './clock.js';
import { TestClock } from './test-clock.js';
import { ClockControl, type ClockControlDeps } from './clock-control.js';
import { listenerUrls } from './listener-urls.js';
import { createReceiver, type Receiver } from './receiver/receiver.js';
import { followTunnel, tunnelOfflineCheck } from './receiver/subscription-mover.js';
import { createReceiverServer } from './receiver/server.js';
import { createTunnel, type Tunnel } from './tunnel/tunnel.js';
import { runCheck } from './checks/runner.js';
import { ConnectionRegistry } from './connections/registry.js';
import type { ConnectionKeyring, Env } from './connections/keyring.js';
import { INSTANCE_FILE, removeInstanceFiles, writeInstanceFiles } from './instance-file.js';
import type { ScenarioDeps } from './scenarios/runner.js';
import { loadDemoAtStart } from './scenarios/demo-start.js';
import { createApiServer } from './api-server.js';
import { applyMemorySettings } from './memory-settings.js';

export interface BackendAddresses {
  api_url: string;
  app_url: string;
  receiver_url: string;
  console_url: string;
}

export interface BackendOptions {
  /** Folder of the built renderer (out/renderer); the console page is served from it. */
  rendererDir?: string;
  /** Keeps the tunnel from starting by itself (tests). */
  tunnelAutostart?: boolean;
  /** The service's clock: a test clock (test-clock.ts) by default; a test may pass a ManualClock and move it by hand. */
  clock?: Clock;
  /** The OS keychain for connection keys (the desktop); headless has none (connections/keyring.ts). */
  keyring?: ConnectionKeyring;
  /** Where connections' `api_key_env` keys are read; process.env by default. */
  env?: Env;
  /** Writes instance.json and a CLI token in the data directory for `countersign` to find (the headless and desktop entries). */
  instanceFile?: boolean;
}

export interface Backend {
  readonly config: BackendConfig;
  readonly store: Store;
  readonly history: HistoryLog;
  readonly bus: ChangeBus;
  readonly clock: Clock;
  /** The test clock's controls (absent when a test passed its own clock). */
  readonly clockControl?: ClockControl;
  readonly domain: Domain;
  readonly outbox: Outbox;
  readonly engine: DeliveryEngine;
  readonly receiver: Receiver;
  readonly tunnel: Tunnel;
  readonly connections: ConnectionRegistry;
  /** Per-run secret that the console API requires. */
  readonly consoleToken: string;
  /** Problems found at start that a person should see (e.g. a corrupt store kept aside). */
  readonly warnings: string[];
  addresses(): BackendAddresses;
  start(): Promise<BackendAddresses>;
  /** Closes every listener, ends the receiver's waiting answers, stops the engine and flushes every store. Idempotent. */
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** What start() and stop() work on. */
interface Parts {
  config: BackendConfig;
  options: BackendOptions;
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  domain: Domain;
  outbox: Outbox;
  engine: DeliveryEngine;
  receiver: Receiver;
  tunnel: Tunnel;
  clockControl?: ClockControl;
  scenarios?: ScenarioDeps;
  apiServer: Server;
  receiverServer: Server;
  warnings: string[];
  /** Ports the listeners got (0 until they listen). */
  ports: { api: number; receiver: number };
  addresses: () => BackendAddresses;
  /** instance.json was written (and is removed at stop). */
  announced: boolean;
}

/** instance.json and the CLI token (instance-file.ts), once the listeners have their ports. */
async function announce(p: Parts): Promise<void> {
  const { api_url, app_url, receiver_url } = p.addresses();
  const token = await p.domain.createCliToken();
  await writeInstanceFiles(p.config.dataDir, { api_url, app_url, receiver_url, pid: process.pid }, token);
  p.announced = true;
}

async function unannounce(p: Parts): Promise<void> {
  if (!p.announced) return;
  p.announced = false;
  await removeInstanceFiles(p.config.dataDir, process.pid);
  await p.domain.revokeCliToken();
}

async function startParts(p: Parts): Promise<void> {
  const { config, store, history, receiver } = p;
  const opened = await store.open();
  p.warnings.push(...opened.warnings);
  // Before anything is stamped: virtual time carries on from where it was.
  p.clockControl?.load();
  try {
    p.warnings.push(...(await history.open()));
    store.attachLog(history);
    await p.domain.ensureSeed(config.adminKey);
    receiver.load();
    p.ports.api = await listen(p.apiServer, config.port, config.host);
    p.ports.receiver = await listen(p.receiverServer, config.receiverPort, config.host);
    // Process-wide V8 settings, here so that every way of starting the service has them; once
    // the history is loaded, since loading grows the heap from nothing (memory-settings.ts).
    applyMemorySettings(() => p.outbox.size);
  } catch (err) {
    receiver.close();
    await Promise.all([close(p.apiServer), close(p.receiverServer)]);
    await store.close();
    await history.close();
    throw err;
  }
  p.engine.start();
  if (config.demo) await startDemo(p, config.demo);
  if (p.options.tunnelAutostart !== false) void p.tunnel.autostart();
  // Without the card the service still runs; the command line then needs --api-url.
  if (p.options.instanceFile)
    await announce(p).catch((err: Error) => p.warnings.push(`could not write ${INSTANCE_FILE} for the command line: ${err.message}`));
}

/** `--demo`: loads the pack into the first company (the seed's); a pack that cannot load is a warning, not a crash. */
async function startDemo(p: Parts, demo: string): Promise<void> {
  const company = p.store.companies.all()[0];
  if (!p.scenarios || !company) return void p.warnings.push(`--demo ${demo}: needs the test clock and a company`);
  try {
    const loaded = await loadDemoAtStart(p.scenarios, company.id, demo);
    p.warnings.push(`demo pack ${loaded.name} loaded: ${loaded.document_ids.length} documents, ${loaded.run?.summary ?? 'no scenario'}`);
  } catch (err) {
    p.warnings.push(`--demo ${demo}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function stopParts(p: Parts): Promise<void> {
  // Delayed and hung answers first, so the receiver's listener can close.
  p.receiver.close();
  await Promise.all([close(p.apiServer), close(p.receiverServer)]);
  await unannounce(p);
  await p.tunnel.stop();
  await p.engine.stop();
  await p.receiver.flush();
  await p.store.close();
  await p.history.close();
}

/** The test clock's controls, when the backend runs on one (a test may pass a ManualClock instead). */
function clockControlFor(clock: Clock, deps: Omit<ClockControlDeps, 'clock'>): ClockControl | undefined {
  return clock instanceof TestClock ? new ClockControl({ clock, ...deps }) : undefined;
}

export function createBackend(config: BackendConfig, options: BackendOptions = {}): Backend {
  const clock = options.clock ?? new TestClock();
  const store = new Store(config.dataDir);
  const history = createHistoryLog({ dir: join(config.dataDir, 'history'), cap: config.historyCap, clock });
  const bus = new ChangeBus();
  const consoleToken = config.consoleToken ?? randomBytes(24).toString('base64url');
  const { ports, apiBase, appUrl, receiverUrl } = listenerUrls(config.host);
  const warnings: string[] = [];
  const outbox = new Outbox({ store, history, clock });
  const domain = new Domain({ store, history, bus, clock, outbox, appUrl, settings: domainSettings(config) });
  const faults = new FaultRegistry(store);
  const redirector = new Redirector(apiBase);
  const tunnel = createTunnel({ bus, authtoken: config.ngrokAuthtoken, targetUrl: receiverUrl });
  const publicUrl = () => tunnel.state().public_url;
  const receiver = createReceiver({ store, bus, config, history, clock, localUrl: receiverUrl, publicUrl });
  const health = { attempted: domain.recordAttempt };
  const tunnelOffline = tunnelOfflineCheck(tunnel, receiver);
  const engine = createDeliveryEngine({ store, outbox, bus, config, clock, health, faults, redirector, tunnelOffline });
  const clockControl = clockControlFor(clock, { store, bus, inFlight: () => engine.inFlight() });
  followTunnel({ bus, receiver, store, domain, tunnel });
  const connections = new ConnectionRegistry({ store, clock, env: options.env ?? process.env, keyring: options.keyring });
  const addresses = (): BackendAddresses => ({
    api_url: apiBase(),
    app_url: `${apiBase()}/app`,
    receiver_url: receiverUrl(),
    console_url: `${apiBase()}/app/#token=${consoleToken}`,
  });
  const scenarios = clockControl && { domain, history, receiver, clockControl, clock, faults, store, inFlight: () => engine.inFlight() };
  const checkDeps = { outbox, clock, policy: { allowPrivate: config.allowPrivateTargets }, appUrl };
  const consoleDeps = {
    token: consoleToken,
    store,
    history,
    bus,
    domain,
    engine,
    receiver,
    tunnel,
    config,
    connections,
    clock,
    warnings,
    addresses,
  };
  const runChecks = (input: Parameters<typeof runCheck>[1]) => runCheck(checkDeps, input);
  const service = { domain, config, clockControl, faults: { registry: faults, store }, runCheck: runChecks, receiver, scenarios };
  const apiServer = createApiServer({ ...consoleDeps, rendererDir: options.rendererDir, port: () => ports.api }, service, redirector);
  const receiverServer = createReceiverServer(receiver);
  const servers = { apiServer, receiverServer, ports, addresses, announced: false };
  const core = { config, options, store, history, bus, domain, outbox, engine, receiver, tunnel, clockControl, scenarios, warnings };
  const parts: Parts = { ...core, ...servers };
  let stopping: Promise<void> | undefined;

  return {
    config,
    store,
    history,
    bus,
    clock,
    clockControl,
    domain,
    outbox,
    engine,
    receiver,
    tunnel,
    connections,
    consoleToken,
    warnings,
    addresses,
    async start() {
      await startParts(parts);
      return addresses();
    },
    stop() {
      stopping ??= stopParts(parts);
      return stopping;
    },
  };
}
