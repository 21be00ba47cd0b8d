// Authentication and roles (docs/api.md section 4), and the optional per-key rate
// limit. Guards against: unauthenticated use (401 before anything else is read),
// members reaching admin routes (403), and one key flooding the service (429).
import type { Request, Response, NextFunction } from 'express';
import { ApiError } from '../errors.js';
import type { Domain } from '../domain/domain.js';
import type { Actor } from '../domain/context.js';
import { systemClock } from '../clock.js';

export function actorOf(res: Response): Actor {
  return res.locals.actor as Actor;
}

export function authenticate(domain: Domain, ratePerSecond?: number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers['x-api-key'];
    const actor = domain.authenticate(typeof header === 'string' ? header : undefined);
    if (!actor) throw new ApiError('unauthorized', header ? 'The API key is not valid.' : 'Send your API key in the X-Api-Key header.');
    if (ratePerSecond) {
      const now = systemClock.now(); // real requests per real second, whatever the service's clock says
      const b = buckets.get(actor.key_id) ?? { tokens: ratePerSecond, at: now };
      b.tokens = Math.min(ratePerSecond, b.tokens + ((now - b.at) / 1000) * ratePerSecond);
      b.at = now;
      if (b.tokens < 1) {
        const wait = Math.max(1, Math.ceil((1 - b.tokens) / ratePerSecond));
        buckets.set(actor.key_id, b);
        throw new ApiError('rate_limited', `Too many requests: the limit is ${ratePerSecond} per second for this key.`, undefined, {
          'Retry-After': String(wait),
        });
      }
      b.tokens -= 1;
      buckets.set(actor.key_id, b);
    }
    res.locals.actor = actor;
    next();
  };
}

export function requireAdmin(_req: Request, res: Response, next: NextFunction): void {
  if (actorOf(res).role !== 'admin') throw new ApiError('forbidden', 'This route needs an admin API key.');
  next();
}
