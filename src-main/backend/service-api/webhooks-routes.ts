// /v2/webhooks (docs/api.md sections 6 and 7) and its extensions: delivery log, one
// delivery with its attempts, redeliver, test event. Admin only (mounted behind requireAdmin).
import { Router } from 'express';
import type { Domain } from '../domain/domain.js';
import { subscriptionView } from '../domain/views.js';
import { actorOf } from './auth.js';
import { pageQuery } from '../http/paging.js';
import { parseQuery } from '../http/query.js';
import { parse } from '../http/validate.js';
import { newSubscription } from './schemas.js';

export function webhooksRoutes(domain: Domain): Router {
  const r = Router();
  const company = (res: Parameters<typeof actorOf>[0]) => actorOf(res).company_id;

  r.get('/', (req, res) => {
    res.json(domain.listSubscriptions(company(res), parseQuery(pageQuery, req)));
  });
  r.post('/', async (req, res) => {
    res.status(201).json(await domain.createSubscription(company(res), parse(newSubscription, req.body)));
  });
  r.get('/:id', (req, res) => {
    res.json(subscriptionView(domain.getSubscription(company(res), req.params.id)));
  });
  r.delete('/:id', async (req, res) => {
    await domain.deleteSubscription(company(res), req.params.id);
    res.status(204).end();
  });
  r.get('/:id/deliveries', (req, res) => {
    res.json(domain.listDeliveries(company(res), req.params.id, parseQuery(pageQuery, req)));
  });
  r.get('/:id/deliveries/:deliveryId', async (req, res) => {
    res.json(await domain.getDelivery(company(res), req.params.id, req.params.deliveryId));
  });
  r.post('/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    res.status(202).json(await domain.redeliver(company(res), req.params.id, req.params.deliveryId));
  });
  r.post('/:id/test', async (req, res) => {
    const d = await domain.sendTestEvent(company(res), req.params.id);
    res.status(202).json({ delivery_id: d.id, event_id: d.event_id, subscription_id: d.subscription_id, status: 'pending' });
  });
  return r;
}
