// GET /v2/test_helpers/connections (local emulator only): the console's connections to
// real deployments, for `countersign listen --connection <name>`, which holds the run's
// command-line key, not the console's token. Guards against the route leaking what it
// must not: never a key, only where the key is (an environment variable's name, a
// file's path, or "keychain"); and only to admins of the company the console itself acts
// for (Demo Company, whose admin keys are the console's and the command line's), since a
// connection belongs to whoever runs this Countersign, not to a tenant of the emulator.
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { DEMO_COMPANY } from '../domain/api-keys.js';
import type { Domain } from '../domain/domain.js';
import type { ConnectionRegistry } from '../connections/registry.js';
import { actorOf } from './auth.js';

export function testHelperConnectionRoutes(domain: Domain, connections: ConnectionRegistry): Router {
  const r = Router();
  r.get('/connections', (_req, res) => {
    if (domain.companyName(actorOf(res).company_id) !== DEMO_COMPANY)
      throw new ApiError(
        'forbidden',
        `Connections belong to whoever runs this Countersign: only admin keys of "${DEMO_COMPANY}" (the console's and the command line's company) can read them.`,
      );
    res.json({ data: connections.list() });
  });
  return r;
}
