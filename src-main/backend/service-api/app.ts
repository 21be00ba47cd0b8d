// The service API as one Express router, mounted by the composition root on the API
// listener's app (a router, not an app of its own: a mounted app swaps each request's
// and response's prototype on the way in and out, one more object shape for node:http's
// code to see on every path, the hot GET's included; docs/benchmark.md). The order of
// the checks is the order of docs/api.md section 5: the Host (DNS rebinding), the key
// and its rate, the role, the path, the body, then the routes.
import { Router } from 'express';
import type { Domain } from '../domain/domain.js';
import type { BackendConfig } from '../config.js';
import { jsonBody } from '../http/body.js';
import { errorWriter, notFoundHandler } from '../http/error-writer.js';
import { hostGuard, hostPolicy } from '../http/host-check.js';
import { wellFormedPath } from '../http/path-check.js';
import { authenticate, requireAdmin } from './auth.js';
import type { KeyRateLimit } from './rate-limit.js';
import { webhooksRoutes } from './webhooks-routes.js';
import { documentsRoutes } from './documents-routes.js';
import { testHelperRoutes } from './test-helper-routes.js';
import { checkRoutes, type RunCheck } from './check-routes.js';
import { testHelperInboxRoutes } from './test-helper-inboxes.js';
import { testHelperConnectionRoutes } from './test-helper-connections.js';
import type { ConnectionRegistry } from '../connections/registry.js';
import type { Receiver } from '../receiver/receiver.js';
import { testClockRoutes } from './test-clock-routes.js';
import type { ClockControl } from '../clock-control.js';
import { faultRoutes } from './fault-routes.js';
import type { FaultRegistry } from '../delivery/faults.js';
import type { Store } from '../store/store.js';
import { scenarioRoutes } from './scenario-routes.js';
import type { ScenarioDeps } from '../scenarios/runner.js';
import { ScenarioLibrary } from '../scenarios/library.js';

export interface ServiceAppDeps {
  domain: Domain;
  config: BackendConfig;
  /** The per-key rate limit (COUNTERSIGN_RATE_LIMIT), shared with the hot read; none: off. */
  rateLimit?: KeyRateLimit;
  /** Runs the conformance scorecard (checks/runner.ts). */
  runCheck: RunCheck;
  /** The built-in receiver: its inboxes under /v2/test_helpers/inboxes. */
  receiver?: Receiver;
  /** The test clock's controls; absent when the backend runs on a clock a test moves itself (ManualClock). */
  clockControl?: ClockControl;
  /** Deliberate faults per subscription (/v2/test_helpers/webhooks/{id}/faults). */
  faults?: { registry: FaultRegistry; store: Store };
  /** What scenarios and demo packs run on; absent without the test clock (they run on it). */
  scenarios?: ScenarioDeps;
  /** The console's connections, read (never their keys) by `countersign listen --connection`. */
  connections?: ConnectionRegistry;
}

export function createServiceApp(deps: ServiceAppDeps): Router {
  const app = Router();
  app.use(hostGuard(hostPolicy(deps.config.allowedHosts)));
  // The contract is public, as Stripe and Svix publish theirs: no key, but the Host check.
  // Its modules are loaded, and the document built, on the first request for it: nothing
  // else needs them, and they are not small (idle memory, docs/benchmark.md).
  app.get('/openapi.json', (_req, res, next) => {
    import('../openapi/document.js').then(({ openApiJson }) => void res.type('application/json').send(openApiJson()), next);
  });
  app.use(authenticate(deps.domain, deps.rateLimit));
  // Roles before bodies: a member gets 403 on admin routes whatever it sends.
  app.use(['/v2/webhooks', '/v2/test_helpers'], requireAdmin);
  app.use(wellFormedPath);
  app.use(jsonBody());
  // Express would answer OPTIONS itself (200, the route's methods): an answer the
  // OpenAPI document does not have. Like any method a route lacks, it is 404.
  app.use((req, res, next) => (req.method === 'OPTIONS' ? notFoundHandler()(req, res, next) : next()));
  app.use('/v2/webhooks', webhooksRoutes(deps.domain));
  app.use('/v2/test_helpers/checks', checkRoutes(deps.runCheck));
  if (deps.clockControl) app.use('/v2/test_helpers/clock', testClockRoutes(deps.clockControl));
  if (deps.faults) app.use('/v2/test_helpers/webhooks', faultRoutes(deps.domain, deps.faults.store, deps.faults.registry));
  if (deps.scenarios) app.use('/v2/test_helpers', scenarioRoutes(deps.scenarios, new ScenarioLibrary()));
  app.use('/v2/test_helpers', testHelperRoutes(deps.domain));
  if (deps.receiver) app.use('/v2/test_helpers', testHelperInboxRoutes(deps.receiver));
  if (deps.connections) app.use('/v2/test_helpers', testHelperConnectionRoutes(deps.domain, deps.connections));
  app.use('/documents', documentsRoutes(deps.domain));
  app.use(notFoundHandler());
  app.use(errorWriter('api'));
  return app;
}
