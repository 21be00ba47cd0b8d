// The console API's receiver and tunnel routes, mounted under /console/api behind the
// console's token/Host/Origin guard (not checked here). Guards against secrets leaving:
// no response carries an inbox secret, a subscription's secret_key or the ngrok
// authtoken, only fingerprints (first 8 hex of sha256); errors leave as ApiError only.
import { Router, type Response } from 'express';
import { z } from 'zod';
import type { Store } from '../store/store.js';
import type { HistoryLog } from '../store/history-types.js';
import type { Domain } from '../domain/domain.js';
import { notFound, validationError } from '../errors.js';
import type { Tunnel } from '../tunnel/tunnel.js';
import { jsonBody } from '../http/body.js';
import { pageQuery } from '../http/paging.js';
import { idParam, parseQuery } from '../http/query.js';
import { parse } from '../http/validate.js';
import type { Receiver } from '../receiver/receiver.js';
import type { Capture } from '../receiver/types.js';
import { inboxInputSchema } from '../receiver/inbox-input.js';
import { applyImport, bodyFields, buildExport } from '../receiver/export-import.js';
import { checkTargetUrl, replay } from '../receiver/replay.js';
import { fingerprint } from '../receiver/verdict.js';
import { moveStale } from '../receiver/subscription-mover.js';
import { curlCommand } from '@shared/curl.js';
import type { CaptureFull, SubscribeResult, TunnelView } from '@shared/receiver-types.js';
import { EVENT_TYPES } from '@shared/api-types.js';

export interface ReceiverConsoleDeps {
  receiver: Receiver;
  tunnel: Tunnel;
  store: Store;
  /** "Subscribe this inbox" and "move subscriptions" make and delete subscriptions. */
  domain: Pick<Domain, 'createSubscription' | 'deleteSubscription'>;
  history: HistoryLog;
}

/** An import file may hold a whole history. */
const IMPORT_LIMIT = 256 * 1024 * 1024;

const subscribeSchema = z.strictObject({ type: z.enum(['all', ...EVENT_TYPES]).default('all') });
const replaySchema = z.strictObject({
  url: z.string(),
  mode: z.enum(['exact', 'resign']).default('exact'),
  body: z.string().optional(),
  secret: z.string().optional(),
});
const startSchema = z.strictObject({ authtoken: z.string().max(500).optional() });
const moveSchema = z.strictObject({ ids: z.array(z.string()).max(100).optional() });
const exportQuery = z.object({ max_deliveries: z.coerce.number().int().min(0).max(1_000_000).optional() });

/** What every group of routes here uses. */
interface Ctx extends ReceiverConsoleDeps {
  company(res: Response): string;
  capture(id: string): Capture;
  tunnelView(res: Response): TunnelView;
}

function inboxRoutes(r: Router, { receiver, domain, company }: Ctx): void {
  r.get('/inboxes', (_req, res) => {
    res.json({ data: receiver.inboxes.list() });
  });
  r.post('/inboxes', jsonBody(), async (req, res) => {
    res.status(201).json(await receiver.inboxes.create(parse(inboxInputSchema, req.body)));
  });
  r.get('/inboxes/:id', (req, res) => {
    res.json(receiver.inboxes.get(idParam(req)));
  });
  r.patch('/inboxes/:id', jsonBody(), async (req, res) => {
    res.json(await receiver.inboxes.update(idParam(req), parse(inboxInputSchema, req.body)));
  });
  r.delete('/inboxes/:id', async (req, res) => {
    await receiver.inboxes.remove(idParam(req));
    res.status(204).end();
  });
  r.get('/inboxes/:id/captures', (req, res) => {
    receiver.inboxes.get(idParam(req));
    res.json(receiver.listCaptures(idParam(req), parseQuery(pageQuery, req)));
  });
  r.post('/inboxes/:id/subscribe', jsonBody(), async (req, res) => {
    const inbox = receiver.inboxes.get(idParam(req));
    const { type } = parse(subscribeSchema, req.body);
    const sub = await domain.createSubscription(company(res), { url: receiver.inboxes.subscribeUrl(inbox.id), type });
    // The secret is shown here once, as POST /v2/webhooks shows it; never again.
    res.status(201).json({
      subscription: { ...sub, secret_fingerprint: fingerprint(sub.secret_key) },
      inbox: receiver.inboxes.get(inbox.id),
    } satisfies SubscribeResult);
  });
}

function captureRoutes(r: Router, { receiver, capture }: Ctx): void {
  r.get('/captures/:id', (req, res) => {
    const { body, ...rest } = capture(idParam(req));
    res.json({
      ...rest,
      ...bodyFields(body),
      body_encoding: bodyFields(body).body_text === null ? 'base64' : 'utf8',
    } satisfies CaptureFull);
  });
  r.post('/captures/:id/replay', jsonBody(), async (req, res) => {
    const c = capture(idParam(req));
    const input = parse(replaySchema, req.body);
    const rec = receiver.inboxes.record(c.inbox_id);
    // Re-sign with the secret that verified this capture, else the inbox's first.
    const cands = rec ? receiver.inboxes.candidates(rec) : [];
    const secret = cands.find((s) => s.subscription_id && s.subscription_id === c.verdict?.subscription_id)?.secret ?? cands[0]?.secret;
    res.json(await replay(c, input, secret, receiver.clock));
  });
  r.get('/captures/:id/curl', (req, res) => {
    const c = capture(idParam(req));
    const url =
      typeof req.query.url === 'string' && req.query.url ? checkTargetUrl(req.query.url) : `${receiver.inboxes.origins().local}${c.path}`;
    const { body_text, body_base64 } = bodyFields(c.body);
    const body = body_text !== null ? { text: body_text } : { base64: body_base64 ?? '' };
    res.type('text/plain; charset=utf-8').send(curlCommand({ method: c.method, url, headers: c.headers, body }));
  });
}

function tunnelRoutes(r: Router, { receiver, tunnel, store, domain, company, tunnelView }: Ctx): void {
  r.get('/tunnel', (_req, res) => {
    res.json(tunnelView(res));
  });
  r.post('/tunnel/start', jsonBody(), async (req, res) => {
    const { authtoken } = parse(startSchema, req.body);
    await tunnel.start(authtoken);
    res.json(tunnelView(res));
  });
  r.post('/tunnel/stop', async (_req, res) => {
    await tunnel.stop();
    res.json(tunnelView(res));
  });
  r.post('/tunnel/forget-authtoken', async (_req, res) => {
    await tunnel.forget();
    res.json(tunnelView(res));
  });
  // Re-created at the inbox's current URL, then the old one deleted (subscription-mover.ts).
  r.post('/tunnel/move-subscriptions', jsonBody(), async (req, res) => {
    const { ids } = parse(moveSchema, req.body);
    const companyId = company(res);
    const moved = await moveStale({ receiver, store, domain }, (s) => s.company_id === companyId && (!ids || ids.includes(s.public_id)));
    res.json({ moved, tunnel: tunnelView(res) });
  });
}

function exportRoutes(r: Router, { receiver, store, history, company }: Ctx): void {
  r.get('/export', async (req, res) => {
    const max = parseQuery(exportQuery, req).max_deliveries;
    const text = await buildExport({ store, receiver, history, companyId: company(res), maxDeliveries: max });
    const name = `countersign-export-${new Date(receiver.clock.now()).toISOString().replace(/[:.]/g, '-')}.json`;
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.type('application/json').send(text);
  });
  r.post('/import', jsonBody(IMPORT_LIMIT), async (req, res) => {
    res.json(await applyImport({ receiver, history, store, companyId: company(res) }, req.body));
  });
}

export function receiverConsoleRoutes(deps: ReceiverConsoleDeps): Router {
  const { receiver, tunnel, store } = deps;
  const company = (res: Response): string => {
    const id = (res.locals.companyId as string | undefined) ?? store.companies.all()[0]?.id;
    if (!id) throw validationError([{ field: 'company', message: 'there is no company yet' }]);
    return id;
  };
  const capture = (id: string) => {
    const c = receiver.getCapture(id);
    if (!c) throw notFound('capture');
    return c;
  };
  const tunnelView = (res: Response): TunnelView => ({
    ...tunnel.state(),
    local_url: receiver.inboxes.origins().local,
    stale_subscriptions: receiver.inboxes.stale().filter((s) => s.company_id === company(res)),
  });
  const ctx: Ctx = { ...deps, company, capture, tunnelView };
  const r = Router();
  for (const group of [inboxRoutes, captureRoutes, tunnelRoutes, exportRoutes]) group(r, ctx);
  return r;
}
