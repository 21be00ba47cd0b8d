// The console API's own routes: what only the console may do (the contract has no
// document list, timeline, key management or notification outbox). Everything here
// runs behind consoleGuard, on behalf of this run's console session (Demo Company).
import { Router } from 'express';
import { z } from 'zod';
import type { ChangeBus } from '../bus.js';
import type { Domain } from '../domain/domain.js';
import type { Store } from '../store/store.js';
import { deliveryView } from '../domain/views.js';
import { DOCUMENT_STATUSES, type ApiKey, type Notification, type TimelineEvent } from '@shared/api-types.js';
import { jsonBody } from '../http/body.js';
import { pageAfter, pageQuery } from '../http/paging.js';
import { parseQuery } from '../http/query.js';
import { parse } from '../http/validate.js';
import type { SessionHolder } from './session.js';
import { openStream } from './stream.js';

const documentQuery = pageQuery.extend({
  status: z.enum(DOCUMENT_STATUSES, { error: `must be one of ${DOCUMENT_STATUSES.join(', ')}` }).optional(),
  q: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
});

const notificationQuery = pageQuery.extend({
  document_id: z.string({ error: 'must be a string' }).optional(),
});

const newKey = z.strictObject({
  role: z.enum(['admin', 'member'], { error: 'must be "admin" or "member"' }),
  label: z.string({ error: 'must be a string' }).max(100, 'must be at most 100 characters').optional(),
});

export interface ConsoleRouteDeps {
  domain: Domain;
  store: Store;
  bus: ChangeBus;
  session: SessionHolder;
  heartbeatMs?: number;
  /** What GET /status reports; built by the mount from the composition root's parts. */
  status: () => Promise<unknown> | unknown;
}

export function consoleRoutes({ domain, store, bus, session, heartbeatMs, status }: ConsoleRouteDeps): Router {
  const r = Router();
  const company = async () => (await session.get()).session.company_id;

  r.get('/session', async (_req, res) => {
    res.json((await session.get()).session);
  });

  r.get('/status', async (_req, res) => {
    res.json(await status());
  });

  r.get('/documents', async (req, res) => {
    const q = parseQuery(documentQuery, req);
    res.json(domain.listDocuments(await company(), q));
  });

  r.get('/documents/:id/timeline', async (req, res) => {
    const events = domain.documentTimeline(await company(), req.params.id);
    res.json({ data: events.map((e): TimelineEvent => ({ ...e, deliveries: e.deliveries.map(deliveryView) })) });
  });

  r.get('/documents/:id/actions', async (req, res) => {
    res.json(domain.allowedActions(await company(), req.params.id));
  });

  r.get('/api-keys', async (_req, res) => {
    const { actor } = await session.get();
    const keys = domain.listApiKeys(actor.company_id);
    // Newest first, and the console's own key is marked so the page can protect it.
    res.json({ data: keys.reverse().map((k): ApiKey => ({ ...k, current_console: k.id === actor.key_id })) });
  });

  r.post('/api-keys', jsonBody(), async (req, res) => {
    const input = parse(newKey, req.body);
    const { actor } = await session.get();
    res.status(201).json(await domain.createApiKey(actor, { role: input.role, label: input.label || undefined }));
  });

  r.delete('/api-keys/:id', async (req, res) => {
    const { actor } = await session.get();
    await domain.revokeApiKey(actor, req.params.id);
    res.status(204).end();
  });

  r.get('/notifications', async (req, res) => {
    const q = parseQuery(notificationQuery, req);
    const all = domain.listNotifications(await company(), q.document_id);
    const page = pageAfter(all, (n) => n.id, q, 'a notification of this company');
    // The title as it is now, so the outbox reads as "who got what about which document".
    const title = (id: string) => store.documents.get(id)?.title ?? null;
    res.json({
      data: page.data.map(({ company_id: _c, ...n }): Notification => ({ ...n, document_title: title(n.document_id) })),
      has_more: page.has_more,
    });
  });

  r.get('/stream', async (req, res) => {
    openStream(req, res, bus, await company(), heartbeatMs);
  });

  return r;
}
