// The console's live stream: server-sent events carrying the ChangeBus's small change
// references for the session's company (plus receiver and tunnel changes, which belong
// to this machine, not to a company). The page refetches what a change names. Guards
// against leaking another company's activity (filtered by company_id) and against
// dead connections holding listeners (cleanup on close; heartbeats let proxies and the
// page notice a dead link). Changes are coalesced: those made within COALESCE_MS of
// the first go out in one socket write (a burst of deliveries made one write each).
// A console that stops reading (a frozen tab, a stalled link) would have every change
// kept for it in memory: past MAX_UNREAD_BYTES its stream is ended, and the page, as
// after any drop, reconnects and refreshes everything it shows.
import type { Request, Response } from 'express';
import type { ChangeBus } from '../bus.js';
import { systemClock, type Timer } from '../clock.js';
import type { Change } from '@shared/api-types.js';

export const HEARTBEAT_MS = 15_000;
export const RETRY_MS = 2_000;
/** How long a change may wait for others to share its socket write. */
export const COALESCE_MS = 5;
/** Bytes written to a console's stream and not yet taken by its socket, past which the stream is ended. */
export const MAX_UNREAD_BYTES = 1024 * 1024;

/** Which changes a console of `companyId` may see. */
export function visibleTo(companyId: string, change: Change): boolean {
  if ('company_id' in change) return change.company_id === companyId;
  return true; // capture, inbox, tunnel: machine-wide (receiver and tunnel belong to the console)
}

export function openStream(req: Request, res: Response, bus: ChangeBus, companyId: string, heartbeatMs = HEARTBEAT_MS): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);
  // A long-lived response must not be cut by the server's request timeout.
  req.socket.setTimeout(0);

  let seq = 0;
  res.write(`retry: ${RETRY_MS}\n: connected\n\n`);
  res.write(`event: ready\ndata: {}\n\n`);
  let pending = '';
  let batch: Timer | null = null;
  let closed = false;
  const send = () => {
    batch = null;
    const text = pending;
    pending = '';
    if (closed) return;
    res.write(text);
    if (res.writableLength > MAX_UNREAD_BYTES) {
      cleanup();
      res.destroy();
    }
  };
  const unsubscribe = bus.subscribe((change) => {
    if (!visibleTo(companyId, change)) return;
    pending += `id: ${++seq}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`;
    batch ??= systemClock.setTimeout(send, COALESCE_MS);
  });
  const heartbeat = systemClock.setInterval(() => res.write(`: heartbeat\n\n`), heartbeatMs);
  heartbeat.unref();

  const cleanup = () => {
    if (closed) return;
    closed = true;
    systemClock.clearInterval(heartbeat);
    systemClock.clearTimeout(batch);
    batch = null;
    unsubscribe();
  };
  req.on('close', cleanup);
  res.on('close', cleanup);
  res.on('error', cleanup);
}
