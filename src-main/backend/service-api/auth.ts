// Authentication and roles (docs/api.md section 4), and the optional per-key rate
// limit. Guards against: unauthenticated use (401 before anything else is read),
// members reaching admin routes (403), and one key flooding the service (429).
import type { Request, Response, NextFunction } from 'express';
import { ApiError } from '../errors.js';
import type { Domain } from '../domain/domain.js';
import type { Actor } from '../domain/context.js';
import type { KeyRateLimit } from './rate-limit.js';

export function actorOf(res: Response): Actor {
  return res.locals.actor as Actor;
}

export function authenticate(domain: Domain, limit: KeyRateLimit | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers['x-api-key'];
    const actor = domain.authenticate(typeof header === 'string' ? header : undefined);
    if (!actor) throw new ApiError('unauthorized', header ? 'The API key is not valid.' : 'Send your API key in the X-Api-Key header.');
    const wait = limit ? limit.take(actor.key_id) : 0;
    if (wait) {
      throw new ApiError('rate_limited', `Too many requests: the limit is ${limit!.perSecond} per second for this key.`, undefined, {
        'Retry-After': String(wait),
      });
    }
    res.locals.actor = actor;
    next();
  };
}

export function requireAdmin(_req: Request, res: Response, next: NextFunction): void {
  if (actorOf(res).role !== 'admin') throw new ApiError('forbidden', 'This route needs an admin API key.');
  next();
}
