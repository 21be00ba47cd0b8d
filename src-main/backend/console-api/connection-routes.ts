// /console/api/connections…: the connections to real deployments (docs/console.md), a
// check that one answers, and the pass-through the console's screens use on a remote
// (connections/proxy.ts). Subscriptions made through it for this Countersign's inboxes
// (via the tunnel's public URL) are remembered, so they can be moved when that URL changes.
import { Router, type Request } from 'express';
import { z } from 'zod';
import { isoNow, type Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import { jsonBody } from '../http/body.js';
import { parse } from '../http/validate.js';
import type { ConnectionRegistry } from '../connections/registry.js';
import { forward, passAnswer } from '../connections/proxy.js';
import { callRemote, isJsonAnswer, type RemoteAnswer } from '../connections/remote-client.js';
import { MAX_KEY_LENGTH } from '../connections/keyring.js';
import { tunnelMoveRoutes, inboxOfTunnelUrl } from './tunnel-move-routes.js';
import type { Tunnel } from '../tunnel/tunnel.js';
import type { Receiver } from '../receiver/receiver.js';
import type { ConnectionCheck } from '@shared/connection-types.js';

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** http(s) URL with nothing after the origin and path; https unless the host is loopback. Trailing "/" dropped. */
const serviceUrl = z
  .string({ error: 'must be a string' })
  .max(2048, 'must be at most 2048 characters')
  .transform((raw, ctx) => {
    let u: URL;
    try {
      u = new URL(raw.trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute URL such as https://api.example.com' });
      return z.NEVER;
    }
    const problem =
      u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.test(u.hostname))
        ? 'must use https:// (http:// only for a loopback host)'
        : u.username || u.password
          ? 'must not carry a user name or password'
          : u.search || u.hash
            ? 'must not have a query or fragment'
            : null;
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  });

const newConnection = z.strictObject({
  name: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(60, 'must be at most 60 characters')
    .refine((s) => s.toLowerCase() !== 'local', "is the built-in service's name; pick another"),
  base_url: serviceUrl,
  app_url: serviceUrl,
  api_key: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(MAX_KEY_LENGTH).optional(),
  api_key_env: z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be an environment variable name (letters, digits, "_")')
    .optional(),
  api_key_file: z
    .string({ error: 'must be a string' })
    .max(4096)
    .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path')
    .optional(),
});

export interface ConnectionRouteDeps {
  connections: ConnectionRegistry;
  tunnel: Tunnel;
  receiver: Receiver;
  clock: Clock;
  /** Deadline of one call to a remote (ms). */
  timeoutMs: number;
}

function checkOf(answer: RemoteAnswer, clock: Clock): ConnectionCheck {
  const base = { checked_at: isoNow(clock), duration_ms: answer.durationMs };
  if (answer.status >= 200 && answer.status < 300) return { ...base, state: 'online', message: 'The service answered and took the key.' };
  let message = `The service answered ${answer.status}.`;
  if (isJsonAnswer(answer)) {
    try {
      const m = (JSON.parse(answer.body.toString('utf8')) as { error?: { message?: unknown } }).error?.message;
      if (typeof m === 'string') message = `The service answered ${answer.status}: ${m}`;
    } catch {
      /* not JSON after all: the status says enough */
    }
  }
  return { ...base, state: answer.status === 401 || answer.status === 403 ? 'unauthorized' : 'error', message };
}

export function connectionRoutes(deps: ConnectionRouteDeps): Router {
  const { connections, clock, timeoutMs } = deps;
  const r = Router();

  r.get('/connections', (_req, res) => {
    res.json({ data: connections.list(), key_storage: connections.keyStorage() });
  });
  r.post('/connections', jsonBody(), async (req, res) => {
    res.status(201).json(await connections.create(parse(newConnection, req.body)));
  });
  r.get('/connections/:id', (req, res) => {
    res.json(connections.get(req.params.id));
  });
  r.delete('/connections/:id', async (req, res) => {
    await connections.remove(req.params.id);
    res.status(204).end();
  });

  r.get('/connections/:id/check', async (req, res) => {
    const c = connections.get(req.params.id);
    let result: ConnectionCheck;
    try {
      const key = await connections.key(c.id);
      const answer = await callRemote({ name: c.name, baseUrl: c.base_url, key, method: 'GET', path: '/v2/webhooks?limit=1', timeoutMs });
      result = checkOf(answer, clock);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const state = err.code === 'remote_unreachable' || err.code === 'remote_timeout' ? 'offline' : 'error';
      result = { state, message: err.message, checked_at: isoNow(clock), duration_ms: null };
    }
    res.json(result);
  });

  r.use('/connections/:id/remote', jsonBody(), async (req: Request<{ id: string }>, res) => {
    const c = connections.get(req.params.id);
    const key = await connections.key(c.id);
    const answer = await forward(req, c, key, timeoutMs);
    res.setHeader('X-Countersign-Connection', c.id);
    await remember(deps, c.id, req, answer);
    passAnswer(res, answer, c.name);
  });

  r.use('/connections/:id/tunnel-moves', tunnelMoveRoutes(deps));
  return r;
}

/** Notes a subscription made for one of our inboxes through the tunnel, and forgets a deleted one. */
async function remember(deps: ConnectionRouteDeps, id: string, req: Request, answer: RemoteAnswer): Promise<void> {
  const path = req.url.split('?')[0];
  if (req.method === 'POST' && path === '/v2/webhooks' && answer.status === 201 && isJsonAnswer(answer)) {
    let sub: { public_id?: unknown; url?: unknown };
    try {
      sub = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return;
    }
    if (typeof sub.public_id !== 'string' || typeof sub.url !== 'string') return;
    const inboxId = inboxOfTunnelUrl(sub.url, deps.tunnel.state().public_url);
    if (!inboxId) return;
    await deps.connections.noteTunnelSubscription(id, sub.public_id, { inbox_id: inboxId, url: sub.url });
    // The inbox verifies the remote's deliveries with this secret, unless one was pasted already.
    const inbox = deps.receiver.inboxes.record(inboxId);
    const secret = (sub as { secret_key?: unknown }).secret_key;
    if (inbox && !inbox.secret && typeof secret === 'string') await deps.receiver.inboxes.update(inboxId, { secret });
    return;
  }
  const del = /^\/v2\/webhooks\/([^/]+)$/.exec(path);
  if (req.method === 'DELETE' && del && (answer.status === 204 || answer.status === 404 || answer.status === 200)) {
    await deps.connections.noteTunnelSubscription(id, decodeURIComponent(del[1]), null);
  }
}
