// Refuses a path with a malformed percent-escape (`/documents/%`, `/x/%zz`) with 400
// invalid_request before any route sees it. Without it the router fails to decode the
// route parameter and the failure would surface as a 500, which bad input must never cause.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

export function isWellFormedPath(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const wellFormedPath: RequestHandler = (req, _res, next) => {
  if (!isWellFormedPath(req.path)) {
    return next(new ApiError('invalid_request', 'The request path has a malformed percent-escape (% must start two hex digits of UTF-8).'));
  }
  next();
};
