// /console/api/connections/{id}/tunnel-moves: the remote half of tunnel-aware
// subscriptions. A subscription this Countersign made on a remote for one of its inboxes
// points at the tunnel's public URL; when that URL changes (ngrok restarted, a new
// session), the remote keeps sending to the old one. GET lists what would move; POST
// (the one confirmation) moves each: a new subscription of the same type at the new
// URL (with the inbox's pasted secret, so signatures keep verifying), then the old one
// deleted. A secret the remote picked instead is pasted on the inbox and shown once.
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { callRemote, type RemoteAnswer } from '../connections/remote-client.js';
import type { ConnectionRouteDeps } from './connection-routes.js';
import type { TunnelMoveResult, TunnelMoves, TunnelSubscription } from '@shared/connection-types.js';

const INBOX_PATH = /^\/in\/(inb_[0-9A-Za-z]+)\/?$/;

/** The inbox a URL reaches through the tunnel's public URL, or null. */
export function inboxOfTunnelUrl(url: string, publicUrl: string | undefined): string | null {
  if (!publicUrl) return null;
  try {
    const u = new URL(url);
    if (u.origin !== new URL(publicUrl).origin) return null;
    return INBOX_PATH.exec(u.pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The remote's error message, or its status. */
function remoteMessage(a: RemoteAnswer): string {
  try {
    const m = (JSON.parse(a.body.toString('utf8')) as { error?: { message?: unknown } }).error?.message;
    if (typeof m === 'string') return `${a.status}: ${m}`;
  } catch {
    /* not JSON */
  }
  return `the remote answered ${a.status}`;
}

export function tunnelMoveRoutes(deps: ConnectionRouteDeps): Router {
  const r = Router({ mergeParams: true });
  const { connections, tunnel } = deps;
  const publicUrl = () => {
    const s = tunnel.state();
    return s.status === 'online' && s.public_url ? s.public_url.replace(/\/+$/, '') : null;
  };
  const pending = (id: string): TunnelMoves => {
    const now = publicUrl();
    const stale = connections.record(id).tunnel_subscriptions.filter((s) => !now || inboxOfTunnelUrl(s.url, now) === null);
    return { public_url: now, data: stale.map((s) => ({ ...s, new_url: now ? `${now}/in/${s.inbox_id}` : null })) };
  };

  r.get('/', (req: { params: { id: string } }, res) => {
    res.json(pending(req.params.id));
  });

  r.post('/', async (req: { params: { id: string } }, res) => {
    const moves = pending(req.params.id);
    if (!moves.public_url)
      throw new ApiError('invalid_request', 'The tunnel is not online: there is no new address to move subscriptions to.');
    const result: TunnelMoveResult = { moved: [], failed: [] };
    for (const s of moves.data) await moveOne(deps, req.params.id, { ...s, new_url: s.new_url! }, result);
    res.json(result);
  });
  return r;
}

async function moveOne(
  deps: ConnectionRouteDeps,
  id: string,
  s: TunnelSubscription & { new_url: string },
  out: TunnelMoveResult,
): Promise<void> {
  const c = deps.connections.get(id);
  const key = await deps.connections.key(id);
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    callRemote({
      name: c.name,
      baseUrl: c.base_url,
      key,
      method,
      path,
      timeoutMs: deps.timeoutMs,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const oldPath = `/v2/webhooks/${encodeURIComponent(s.subscription_id)}`;
  try {
    const old = await call('GET', oldPath);
    if (old.status === 404) {
      await deps.connections.noteTunnelSubscription(id, s.subscription_id, null);
      return void out.failed.push({ subscription_id: s.subscription_id, message: 'It no longer exists on the remote; forgotten.' });
    }
    if (old.status !== 200) return void out.failed.push({ subscription_id: s.subscription_id, message: remoteMessage(old) });
    const type = (JSON.parse(old.body.toString('utf8')) as { type?: unknown }).type ?? 'all';
    // The inbox's pasted secret (the old subscription's, pasted when it was made) is kept.
    const kept = deps.receiver.inboxes.record(s.inbox_id)?.secret ?? undefined;
    const made = await call('POST', '/v2/webhooks', { url: s.new_url, type, ...(kept ? { secret_key: kept } : {}) });
    if (made.status !== 201) return void out.failed.push({ subscription_id: s.subscription_id, message: remoteMessage(made) });
    const sub = JSON.parse(made.body.toString('utf8')) as { public_id: string; url: string; secret_key: string };
    await deps.connections.noteTunnelSubscription(id, sub.public_id, { inbox_id: s.inbox_id, url: sub.url });
    await deps.connections.noteTunnelSubscription(id, s.subscription_id, null);
    const inbox = deps.receiver.inboxes.record(s.inbox_id);
    if (inbox && inbox.secret !== sub.secret_key) await deps.receiver.inboxes.update(s.inbox_id, { secret: sub.secret_key });
    await call('DELETE', oldPath);
    out.moved.push({ old_subscription_id: s.subscription_id, subscription_id: sub.public_id, url: sub.url, secret_key: sub.secret_key });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    out.failed.push({ subscription_id: s.subscription_id, message: err.message });
  }
}
