// /documents/{id}: GET, PUT, remind (docs/api.md section 8). Any role.
import { Router } from 'express';
import type { Domain } from '../domain/domain.js';
import { actorOf } from './auth.js';
import { parse } from '../http/validate.js';
import { documentPatch } from './schemas.js';

export function documentsRoutes(domain: Domain): Router {
  const r = Router();
  r.get('/:id', (req, res) => {
    res.json(domain.documentView(actorOf(res).company_id, req.params.id));
  });
  r.put('/:id', async (req, res) => {
    // Ownership first: another company's id is 404 whatever the body says.
    const companyId = actorOf(res).company_id;
    domain.getDocument(companyId, req.params.id);
    res.json(await domain.updateDocument(companyId, req.params.id, parse(documentPatch, req.body)));
  });
  r.post('/:id/remind', async (req, res) => {
    res.json(await domain.remind(actorOf(res).company_id, req.params.id));
  });
  return r;
}
