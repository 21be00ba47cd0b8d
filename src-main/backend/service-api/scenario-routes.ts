// /v2/test_helpers/scenarios and /v2/test_helpers/demo_packs (local emulator only,
// admin key): run a scenario on the test clock, list the shipped ones, load a demo
// pack, write one (docs/testing-your-endpoint.md). Mounted only where the backend runs
// on the test clock.
import { Router } from 'express';
import { z } from 'zod';
import { parse } from '../http/validate.js';
import { validationError } from '../errors.js';
import { actorOf } from './auth.js';
import { newCheck } from './check-routes.js';
import { scenarioSchema } from '../scenarios/schema.js';
import type { ScenarioDeps } from '../scenarios/runner.js';
import { runScenario } from '../scenarios/runner.js';
import { exportPack, loadPack } from '../scenarios/demo-pack.js';
import type { ScenarioLibrary } from '../scenarios/library.js';
import { demoPackSchema } from '../scenarios/pack-schema.js';

export const newScenarioRun = z.strictObject({
  /** A scenario file's content… */
  scenario: scenarioSchema.optional(),
  /** …or the name of a shipped one. */
  name: z.string().max(60).optional(),
  target: z.strictObject({ url: newCheck.shape.url, secret: newCheck.shape.secret }).optional(),
});

export const packExportQuery = z.strictObject({
  name: scenarioSchema.shape.name.optional(),
  keep_people: z.enum(['true', 'false']).optional(),
});

export function scenarioRoutes(deps: ScenarioDeps, library: ScenarioLibrary): Router {
  const r = Router();
  r.get('/scenarios', async (_req, res) => {
    res.json({ data: await library.list() });
  });
  r.get('/scenarios/:name', async (req, res) => {
    res.json(await library.scenario(req.params.name));
  });
  r.post('/scenarios/runs', async (req, res) => {
    const body = parse(newScenarioRun, req.body);
    if ((body.scenario === undefined) === (body.name === undefined))
      throw validationError([{ field: 'scenario', message: 'send either "scenario" (the file) or "name" (a shipped one), not both' }]);
    const scenario = body.scenario ?? (await library.scenario(body.name!));
    res.status(201).json(await runScenario(deps, { companyId: actorOf(res).company_id, scenario, target: body.target }));
  });
  r.get('/demo_packs', async (_req, res) => {
    res.json({ data: await library.packs() });
  });
  r.get('/demo_packs/export', (req, res) => {
    const q = parse(packExportQuery, req.query);
    res.json(exportPack(deps, actorOf(res).company_id, { name: q.name ?? 'exported', keepPeople: q.keep_people === 'true' }));
  });
  // A pack file (one the export wrote, on this machine or another) in the body.
  r.post('/demo_packs/load', async (req, res) => {
    const pack = parse(demoPackSchema, req.body);
    res.status(201).json(await loadPack(deps, actorOf(res).company_id, pack));
  });
  r.post('/demo_packs/:name/load', async (req, res) => {
    const pack = await library.pack(req.params.name);
    res.status(201).json(await loadPack(deps, actorOf(res).company_id, pack));
  });
  return r;
}
