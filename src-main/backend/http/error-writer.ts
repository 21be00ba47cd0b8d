// The one place that writes errors (docs/api.md section 5), for every Express app of
// the backend: the service API, the console API and page, and the receiver. Guards
// against stack traces, file paths or library messages reaching a response: only an
// ApiError's own body is ever written; anything else is a defect, logged here with its
// stack and answered with a generic 500 that names no file, line or library. Error
// answers are never cached.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, internalError } from '../errors.js';

/** The error-handling middleware; `label` names the app in the log. */
export function errorWriter(label: string): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (!(err instanceof ApiError)) console.error(`[${label}] unexpected error:`, err);
    // Part of an answer already left: cut the connection so it cannot pass for a whole one.
    if (res.headersSent) return void res.destroy();
    const apiError = err instanceof ApiError ? err : internalError();
    for (const [name, value] of Object.entries(apiError.headers ?? {})) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'no-store');
    res.status(apiError.status).json(apiError.toBody());
  };
}

/** The last route of an app: 404 not_found naming the method and path (plus a hint where one helps). */
export function notFoundHandler(hint?: string): RequestHandler {
  return (req, _res, next) => {
    const path = `${req.baseUrl}${req.path}`;
    next(new ApiError('not_found', `No route ${req.method} ${path}.${hint ? ` ${hint}` : ''}`));
  };
}
