// /v2/test_helpers (local emulator only, admin key): how scripts play the recipients
// and the web application, and mint keys for other roles and companies.
import { Router } from 'express';
import type { Domain } from '../domain/domain.js';
import { notFound } from '../errors.js';
import { actorOf } from './auth.js';
import { parse } from '../http/validate.js';
import { action, newApiKey, newDocument, transitionBody } from './schemas.js';
import { testHelperWebhookRoutes } from './test-helper-webhooks.js';

export function testHelperRoutes(domain: Domain): Router {
  const r = Router();
  r.post('/documents', async (req, res) => {
    res.status(201).json(await domain.createDocument(actorOf(res).company_id, parse(newDocument, req.body)));
  });
  r.post('/documents/:id/:action', async (req, res) => {
    const companyId = actorOf(res).company_id;
    const act = action.safeParse(req.params.action);
    if (!act.success) throw notFound('test helper action');
    domain.getDocument(companyId, req.params.id);
    const body = parse(transitionBody, req.body);
    res.json(await domain.transition(companyId, req.params.id, act.data, body.recipient_id));
  });
  r.post('/api_keys', async (req, res) => {
    res.status(201).json(await domain.createApiKey(actorOf(res), parse(newApiKey, req.body)));
  });
  r.use('/webhooks', testHelperWebhookRoutes(domain));
  return r;
}
