// The API listener's server: one Express app holding the console (mountConsole) and the
// service API (a router, service-api/app.ts), behind two answers made without Express's
// dispatch: the redirect fault's URLs and a successful GET /documents/{id}.
import { createServer, type Server } from 'node:http';
import express from 'express';
import type { Redirector } from './delivery/redirector.js';
import { settleHttpMessageShapes } from './http/message-shapes.js';
import { keepTickObjectShape } from './http/tick-shape.js';
import { presetExpressFields } from './http/express-shapes.js';
import { expressMessageClasses } from './http/express-messages.js';
import { mountConsole } from './console-api/mount.js';
import { createServiceApp } from './service-api/app.js';
import { fastDocumentRead } from './service-api/fast-read.js';
import { keyRateLimit } from './service-api/rate-limit.js';

/** The API listener: the console, then the service API. */
export function createApiServer(
  consoleDeps: Parameters<typeof mountConsole>[1],
  service: Parameters<typeof createServiceApp>[0],
  redirector: Redirector,
): Server {
  // Node's tick objects keep their layout through every garbage collection (http/tick-shape.ts).
  keepTickObjectShape();
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  mountConsole(app, consoleDeps);
  // The service API reads the console's connections (never their keys) for the command line.
  const rateLimit = keyRateLimit(service.config.rateLimit);
  app.use(createServiceApp({ ...service, rateLimit, connections: consoleDeps.connections }));
  // GET /documents/{id} succeeds without Express's dispatch (measured: most of its cost).
  const fastRead = fastDocumentRead(service.domain, service.config, rateLimit);
  // Requests and responses are built with the app's prototypes (http/express-messages.ts), and
  // keep a fast layout from before the first request (http/message-shapes.ts).
  const classes = expressMessageClasses(app);
  settleHttpMessageShapes(classes);
  return createServer(classes, (req, res) => {
    if (redirector.handle(req, res) || fastRead(req, res)) return;
    // Express's additions get shared maps (http/express-shapes.ts).
    presetExpressFields(req, res);
    app(req, res);
  });
}
