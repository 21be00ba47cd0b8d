// /v2/test_helpers/webhooks/{id}/faults (local emulator only, admin key): deliberate
// faults on one subscription's deliveries. An emulator extra: the subscription object
// of /v2/webhooks never shows them. PUT replaces the whole set ({} clears it).
import { Router } from 'express';
import { z } from 'zod';
import type { Domain } from '../domain/domain.js';
import type { Store } from '../store/store.js';
import type { FaultRegistry } from '../delivery/faults.js';
import { actorOf } from './auth.js';
import { parse } from '../http/validate.js';
import type { WebhookFaults, WebhookFaultsView } from '@shared/api-types.js';

const share = z.number({ error: 'must be a number from 0 to 1' }).min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1').optional();
const ms = (what: string) =>
  z
    .number({ error: `is required: ${what}, in milliseconds` })
    .int('must be a whole number of milliseconds')
    .min(1, 'must be at least 1')
    .max(60_000, 'must be at most 60000 (a minute)');

export const faultsBody = z.strictObject({
  duplicate: z.strictObject({ share }).optional(),
  reorder: z.strictObject({ share, window_ms: ms('how long attempts are held to be reordered') }).optional(),
  delay: z.strictObject({ share, ms: ms('how long each attempt waits before it is sent') }).optional(),
  stale_timestamp: z
    .strictObject({
      share,
      seconds: z
        .number({ error: 'must be a number of seconds' })
        .int('must be a whole number of seconds')
        .min(1, 'must be at least 1')
        .max(31_536_000, 'must be at most 31536000 (a year)')
        .optional(),
    })
    .optional(),
  wrong_secret: z.strictObject({ share }).optional(),
  rotation: z.strictObject({ share }).optional(),
  redirect: z
    .strictObject({
      share,
      status: z
        .union(
          [301, 302, 303, 307, 308].map((n) => z.literal(n)),
          { error: 'must be 301, 302, 303, 307 or 308' },
        )
        .optional(),
    })
    .optional(),
});

/** The stored set, with the defaults written out (a stale timestamp is 10 minutes old unless said). */
export function normalisedFaults(body: z.output<typeof faultsBody>): WebhookFaults {
  const out = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as WebhookFaults;
  if (out.stale_timestamp) out.stale_timestamp = { ...out.stale_timestamp, seconds: out.stale_timestamp.seconds ?? 600 };
  return out;
}

export function faultRoutes(domain: Domain, store: Store, faults: FaultRegistry): Router {
  const r = Router();
  const view = (id: string): WebhookFaultsView => ({ object: 'webhook_faults', subscription_id: id, faults: faults.get(id) });
  r.get('/:id/faults', (req, res) => {
    const sub = domain.getSubscription(actorOf(res).company_id, req.params.id);
    res.json(view(sub.public_id));
  });
  r.put('/:id/faults', async (req, res) => {
    const sub = domain.getSubscription(actorOf(res).company_id, req.params.id);
    const set = normalisedFaults(parse(faultsBody, req.body));
    faults.set(sub.public_id, set);
    faults.prune((id) => store.subscriptions.get(id) !== undefined);
    await store.commit();
    res.json(view(sub.public_id));
  });
  r.delete('/:id/faults', async (req, res) => {
    const sub = domain.getSubscription(actorOf(res).company_id, req.params.id);
    faults.set(sub.public_id, {});
    await store.commit();
    res.status(204).end();
  });
  return r;
}
