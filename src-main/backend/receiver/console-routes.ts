// The console API's receiver and tunnel routes, mounted under /console/api behind the
// console's token/Host/Origin guard (not checked here). Guards against secrets leaving:
// no response carries an inbox secret, a subscription's secret_key or the ngrok
// authtoken, only fingerprints (first 8 hex of sha256); errors leave as ApiError only.
import { Router, type Request, type Response, type NextFunction } from 'express';
import { z } from 'zod';
import type { Store } from '../store/store.js';
import type { HistoryLog } from '../store/history-types.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { Tunnel } from '../tunnel/tunnel.js';
import type { Receiver } from './receiver.js';
import { createInboxSchema, parseInput, updateInboxSchema } from './inbox-input.js';
import { applyImport, bodyFields, buildExport } from './export-import.js';
import { checkTargetUrl, replay } from './replay.js';
import { curlCommand } from './curl.js';
import { fingerprint } from './verdict.js';
import type { CaptureFull, MovedSubscription, SubscribeResult, TunnelView } from '@shared/receiver-types.js';
import { EVENT_TYPES } from '@shared/api-types.js';
import type { EventType } from '@shared/api-types.js';

/** What "subscribe" and "move" need from the domain (domain/domain.ts). */
export interface SubscriptionOps {
  createSubscription(
    companyId: string,
    input: { url: string; type: 'all' | EventType; secret_key?: string },
  ): Promise<{ public_id: string; url: string; type: string; status: string; created_at: string; secret_key: string }>;
  deleteSubscription(companyId: string, id: string): Promise<unknown>;
}

export interface ReceiverConsoleDeps {
  receiver: Receiver;
  tunnel: Tunnel;
  store: Store;
  domain: unknown;
  history: HistoryLog;
}

const JSON_LIMIT = 1024 * 1024;
const IMPORT_LIMIT = 256 * 1024 * 1024;

/** Reads a JSON object body (unless a router before this one already did). */
function jsonBody(limit: number) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    if (req.body !== undefined || req.readableEnded) return next();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) throw new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);
      chunks.push(chunk as Buffer);
    }
    if (size === 0) {
      req.body = {};
      return next();
    }
    try {
      req.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new ApiError('invalid_json', 'The request body is not valid JSON.');
    }
    if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
      throw new ApiError('invalid_json', 'The request body must be a JSON object.');
    next();
  };
}

/** The :id route parameter (Express types allow an array for wildcard parameters). */
const pid = (req: Request): string => String(req.params.id);

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  starting_after: z.string().optional(),
});
const subscribeSchema = z.strictObject({ type: z.enum(['all', ...EVENT_TYPES]).default('all') });
const replaySchema = z.strictObject({
  url: z.string(),
  mode: z.enum(['exact', 'resign']).default('exact'),
  body: z.string().optional(),
  secret: z.string().optional(),
});
const startSchema = z.strictObject({ authtoken: z.string().max(500).optional() });
const moveSchema = z.strictObject({ ids: z.array(z.string()).max(100).optional() });

export function receiverConsoleRoutes(deps: ReceiverConsoleDeps): Router {
  const { receiver, tunnel, store, history } = deps;
  const r = Router();
  const small = jsonBody(JSON_LIMIT);

  const domain = (): SubscriptionOps => {
    const d = deps.domain as Partial<SubscriptionOps> | null;
    if (!d || typeof d.createSubscription !== 'function' || typeof d.deleteSubscription !== 'function')
      throw new ApiError('internal_error', 'Subscriptions are not available.');
    return d as SubscriptionOps;
  };
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

  r.get('/inboxes', (_req, res) => {
    res.json({ data: receiver.inboxes.list() });
  });
  r.post('/inboxes', small, async (req, res) => {
    res.status(201).json(await receiver.inboxes.create(parseInput(createInboxSchema, req.body)));
  });
  r.get('/inboxes/:id', (req, res) => {
    res.json(receiver.inboxes.get(pid(req)));
  });
  r.patch('/inboxes/:id', small, async (req, res) => {
    res.json(await receiver.inboxes.update(pid(req), parseInput(updateInboxSchema, req.body)));
  });
  r.delete('/inboxes/:id', async (req, res) => {
    await receiver.inboxes.remove(pid(req));
    res.status(204).end();
  });
  r.get('/inboxes/:id/captures', (req, res) => {
    receiver.inboxes.get(pid(req));
    const q = parseInput(pageQuery, { ...req.query });
    res.json(receiver.listCaptures(pid(req), q));
  });

  r.post('/inboxes/:id/subscribe', small, async (req, res) => {
    const inbox = receiver.inboxes.get(pid(req));
    const { type } = parseInput(subscribeSchema, req.body);
    const sub = await domain().createSubscription(company(res), { url: receiver.inboxes.subscribeUrl(inbox.id), type });
    const { secret_key, ...view } = sub;
    res.status(201).json({
      subscription: { ...view, secret_fingerprint: fingerprint(secret_key) },
      inbox: receiver.inboxes.get(inbox.id),
    } satisfies SubscribeResult);
  });

  r.get('/captures/:id', (req, res) => {
    const { body, ...rest } = capture(pid(req));
    res.json({
      ...rest,
      ...bodyFields(body),
      body_encoding: bodyFields(body).body_text === null ? 'base64' : 'utf8',
    } satisfies CaptureFull);
  });
  r.post('/captures/:id/replay', small, async (req, res) => {
    const c = capture(pid(req));
    const input = parseInput(replaySchema, req.body);
    const rec = receiver.inboxes.record(c.inbox_id);
    // Re-sign with the secret that verified this capture, else the inbox's first.
    const cands = rec ? receiver.inboxes.candidates(rec) : [];
    const secret = cands.find((s) => s.subscription_id && s.subscription_id === c.verdict?.subscription_id)?.secret ?? cands[0]?.secret;
    res.json(await replay(c, input, secret, receiver.clock));
  });
  r.get('/captures/:id/curl', (req, res) => {
    const c = capture(pid(req));
    const url =
      typeof req.query.url === 'string' && req.query.url ? checkTargetUrl(req.query.url) : `${receiver.inboxes.origins().local}${c.path}`;
    res.type('text/plain; charset=utf-8').send(curlCommand(c, url));
  });

  r.get('/tunnel', (_req, res) => {
    res.json(tunnelView(res));
  });
  r.post('/tunnel/start', small, async (req, res) => {
    const { authtoken } = parseInput(startSchema, req.body);
    await tunnel.start(authtoken);
    res.json(tunnelView(res));
  });
  r.post('/tunnel/stop', async (_req, res) => {
    await tunnel.stop();
    res.json(tunnelView(res));
  });
  // The API has no update: each stale subscription is re-created at the inbox's current
  // URL with the same type and secret, then the old one is deleted (created first, so a
  // failure never leaves the inbox with no subscription; its pending retries are cancelled).
  r.post('/tunnel/move-subscriptions', small, async (req, res) => {
    const { ids } = parseInput(moveSchema, req.body);
    const companyId = company(res);
    const stale = receiver.inboxes.stale().filter((s) => s.company_id === companyId && (!ids || ids.includes(s.public_id)));
    const moved: MovedSubscription[] = [];
    for (const s of stale) {
      const old = store.subscriptions.get(s.public_id);
      if (!old) continue;
      const created = await domain().createSubscription(companyId, { url: s.new_url, type: old.type, secret_key: old.secret_key });
      await domain().deleteSubscription(companyId, old.public_id);
      moved.push({
        from_id: old.public_id,
        from_url: old.url,
        to_id: created.public_id,
        to_url: created.url,
        inbox_id: s.inbox_id,
        type: created.type,
      });
    }
    res.json({ moved, tunnel: tunnelView(res) });
  });

  r.get('/export', async (req, res) => {
    const max =
      req.query.max_deliveries === undefined
        ? undefined
        : parseInput(z.object({ max_deliveries: z.coerce.number().int().min(0).max(1_000_000) }), { ...req.query }).max_deliveries;
    const text = await buildExport({ store, receiver, history, companyId: company(res), maxDeliveries: max });
    const name = `countersign-export-${new Date(receiver.clock.now()).toISOString().replace(/[:.]/g, '-')}.json`;
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.type('application/json').send(text);
  });
  r.post('/import', jsonBody(IMPORT_LIMIT), async (req, res) => {
    res.json(await applyImport({ receiver, history, store, companyId: company(res) }, req.body));
  });

  return r;
}
