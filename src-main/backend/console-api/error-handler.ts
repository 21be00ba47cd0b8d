// The console mount's error writer. Guards against stack traces, internal paths or
// library messages reaching a response: only ApiError's own body is ever written;
// body-parser failures are mapped to their contract codes; anything else is a
// generic 500 (logged here, never echoed).
import type { ErrorRequestHandler } from 'express';
import { ApiError, internalError } from '../errors.js';

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { type?: unknown; status?: unknown } | null;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new ApiError('invalid_json', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new ApiError('payload_too_large', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', 'The request body must be UTF-8 JSON.');
  }
  console.error('[console-api] unexpected error:', err);
  return internalError();
}

export const consoleErrorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  const apiError = toApiError(err);
  res.status(apiError.status);
  for (const [name, value] of Object.entries(apiError.headers ?? {})) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.json(apiError.toBody());
};
