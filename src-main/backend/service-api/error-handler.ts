// The one place that writes errors (CONTRACT.md section 4). Anything that is not an
// ApiError is a defect: it is logged here with its stack and answered with a generic
// 500 that names no file, line or library.
import type { Request, Response, NextFunction } from 'express';
import { ApiError, internalError } from '../errors.js';

export function sendError(res: Response, err: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err.headers) for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  res.status(err.status).json(err.toBody());
}

export function errorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (err instanceof ApiError) return sendError(res, err);
  // body-parser style errors from Express internals carry a status and a type.
  const status = (err as { status?: number }).status;
  if (status === 413) return sendError(res, new ApiError('payload_too_large', 'The request body is too large.'));
  if (status === 400 && (err as { type?: string }).type === 'entity.parse.failed')
    return sendError(res, new ApiError('invalid_json', 'The request body is not valid JSON.'));
  console.error('[api] unexpected error:', err);
  sendError(res, internalError());
}

export function notFoundHandler(req: Request, res: Response): void {
  sendError(res, new ApiError('not_found', `No route ${req.method} ${req.path}.`));
}
