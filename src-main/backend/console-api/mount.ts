// Mounts the console on the API listener: the token-guarded console API under
// /console/api (including the receiver's console routes) and the built page under
// /app. Security header: wrong Host names are refused (http/host-check.ts, DNS
// rebinding), then foreign Origins and missing tokens (guard.ts); no CORS header is
// ever written; errors leave only through the one error writer (no stack traces).
import type { Express } from 'express';
import type { BackendConfig } from '../config.js';
import type { ChangeBus } from '../bus.js';
import type { Domain } from '../domain/domain.js';
import type { DeliveryEngine } from '../delivery/engine-types.js';
import type { HistoryLog } from '../store/history-types.js';
import type { Store } from '../store/store.js';
import type { Receiver } from '../receiver/receiver.js';
import type { Tunnel } from '../tunnel/tunnel.js';
import { errorWriter, notFoundHandler } from '../http/error-writer.js';
import { hostGuard, hostPolicy } from '../http/host-check.js';
import { wellFormedPath } from '../http/path-check.js';
import { receiverConsoleRoutes } from './receiver-routes.js';
import { inspectorRoutes } from './inspector-routes.js';
import { consoleGuard } from './guard.js';
import { connectionRoutes } from './connection-routes.js';
import type { ConnectionRegistry } from '../connections/registry.js';
import type { Clock } from '../clock.js';
import { consoleRoutes } from './routes.js';
import { sessionHolder } from './session.js';
import { signInRoutes } from './sign-in.js';
import { consoleStatic } from './static.js';
import type { ConsoleStatus } from '@shared/api-types.js';

export interface ConsoleAddresses {
  api_url: string;
  app_url: string;
  receiver_url?: string;
  console_url?: string;
}

export interface ConsoleDeps {
  /** The per-run console token. */
  token: string;
  store: Store;
  history: HistoryLog;
  bus: ChangeBus;
  domain: Domain;
  engine: DeliveryEngine;
  receiver: Receiver;
  tunnel: Tunnel;
  config: BackendConfig;
  /** The built renderer (out/renderer); a plain "not built" page is served when absent. */
  rendererDir?: string;
  /** The API listener's port, known once it listens. */
  port: () => number;
  /** Optional: start-up problems a person should see (shown by GET /console/api/status). */
  warnings?: readonly string[];
  /** Optional: every bound address (GET /console/api/status); api/app are derived when absent. */
  addresses?: () => ConsoleAddresses;
  /** Connections to real deployments, and the service's clock for their timestamps. */
  connections: ConnectionRegistry;
  clock: Clock;
  /** Optional: the stream's heartbeat interval (tests shorten it). */
  streamHeartbeatMs?: number;
}

export const CONSOLE_API_PREFIX = '/console/api';

export function mountConsole(app: Express, deps: ConsoleDeps): void {
  const { token, domain, bus, port, config } = deps;
  const session = sessionHolder(domain);
  const addresses = (): ConsoleAddresses => {
    if (deps.addresses) {
      // The token-bearing console_url is the page's own business; it is not echoed back.
      const { console_url: _omit, ...rest } = deps.addresses();
      return rest;
    }
    const api = `http://${config.host}:${port()}`;
    return { api_url: api, app_url: `${api}/app`, receiver_url: deps.receiver.inboxes.origins().local };
  };
  const status = (): ConsoleStatus => ({
    warnings: [...(deps.warnings ?? [])],
    addresses: addresses(),
    tunnel: deps.tunnel.state(),
    deliveries_in_flight: deps.engine.inFlight(),
  });

  const hosts = hostPolicy(config.allowedHosts);
  app.use(CONSOLE_API_PREFIX, hostGuard(hosts), consoleGuard({ token, hosts }), wellFormedPath, (_req, res, next) => {
    // Token-guarded answers are never cached by anything.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(CONSOLE_API_PREFIX, signInRoutes(token));
  app.use(CONSOLE_API_PREFIX, consoleRoutes({ domain, store: deps.store, bus, session, status, heartbeatMs: deps.streamHeartbeatMs }));
  // Connections to real deployments and the pass-through to them (connection-routes.ts).
  app.use(
    CONSOLE_API_PREFIX,
    connectionRoutes({
      connections: deps.connections,
      tunnel: deps.tunnel,
      receiver: deps.receiver,
      clock: deps.clock,
      timeoutMs: config.remoteTimeoutMs,
    }),
  );
  // The receiver's inboxes, captures and tunnel (receiver-routes.ts), acting for
  // the console session's company.
  app.use(
    CONSOLE_API_PREFIX,
    async (_req, res, next) => {
      res.locals.companyId = (await session.get()).session.company_id;
      next();
    },
    receiverConsoleRoutes({ receiver: deps.receiver, tunnel: deps.tunnel, store: deps.store, domain, history: deps.history }),
  );
  // The live delivery inspector (inspector-routes.ts): merged deliveries and captures.
  app.use(
    `${CONSOLE_API_PREFIX}/inspector`,
    inspectorRoutes({
      history: deps.history,
      receiver: deps.receiver,
      store: deps.store,
      companyId: async () => (await session.get()).session.company_id,
    }),
  );
  // Nothing under the console prefix falls through to the service API.
  app.use(CONSOLE_API_PREFIX, notFoundHandler());
  app.use(CONSOLE_API_PREFIX, errorWriter('console-api'));

  app.use('/app', hostGuard(hosts), wellFormedPath, consoleStatic(deps.rendererDir));
  app.use('/app', errorWriter('console'));
}
