// /v2/test_helpers/webhooks/{id}/… (emulator extras, admin key; docs/api.md "Subscription
// health, recovery and rotation"): disable and enable by hand, recover since a time,
// rotate the secret with an overlap, and which secrets sign now (by fingerprint). Not in
// the /v2/webhooks contract: the real service shows no such routes.
import { Router } from 'express';
import { z } from 'zod';
import type { Domain } from '../domain/domain.js';
import { subscriptionView } from '../domain/views.js';
import { actorOf } from './auth.js';
import { parse } from '../http/validate.js';
import { EVENT_INFO } from '../openapi/events.js';
import { EVENT_TYPES } from '@shared/api-types.js';

export const disableBody = z.strictObject({
  reason: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
});
const emptyBody = z.strictObject({});
export const recoverBody = z.strictObject({
  since: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time, e.g. 2026-11-26T09:00:00Z' }),
});
export const rotateBody = z.strictObject({
  overlap_seconds: z
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(30 * 86400, 'must be at most 2592000 (30 days)')
    .optional(),
});

export const sendExampleBody = z.strictObject({
  type: z.enum(EVENT_TYPES, { error: `must be one of: ${EVENT_TYPES.join(', ')}` }),
});

export function testHelperWebhookRoutes(domain: Domain): Router {
  const r = Router();
  const company = (res: Parameters<typeof actorOf>[0]) => actorOf(res).company_id;
  r.post('/:id/disable', async (req, res) => {
    const { reason } = parse(disableBody, req.body ?? {});
    await domain.disableSubscription(company(res), req.params.id, reason);
    res.json(subscriptionView(domain.getSubscription(company(res), req.params.id)));
  });
  r.post('/:id/enable', async (req, res) => {
    parse(emptyBody, req.body ?? {});
    await domain.enableSubscription(company(res), req.params.id);
    res.json(subscriptionView(domain.getSubscription(company(res), req.params.id)));
  });
  r.post('/:id/recover', async (req, res) => {
    const { since } = parse(recoverBody, req.body ?? {});
    res.status(202).json(await domain.recoverSince(company(res), req.params.id, since));
  });
  r.post('/:id/rotate_secret', async (req, res) => {
    const { overlap_seconds } = parse(rotateBody, req.body ?? {});
    res.json(await domain.rotateSecret(company(res), req.params.id, overlap_seconds));
  });
  // The event catalog's "Send example": the type's documented example, as a real signed delivery.
  r.post('/:id/send_example', async (req, res) => {
    const { type } = parse(sendExampleBody, req.body ?? {});
    const d = await domain.sendExampleEvent(company(res), req.params.id, type, EVENT_INFO[type].example);
    res.status(202).json({ delivery_id: d.id, event_id: d.event_id, subscription_id: d.subscription_id, status: 'pending' });
  });
  r.get('/:id/secrets', (req, res) => {
    res.json(domain.subscriptionSecrets(company(res), req.params.id));
  });
  return r;
}
