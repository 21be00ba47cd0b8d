// The one error path (docs/api.md section 5): domain and route code throw ApiError;
// one middleware (http/error-writer.ts) writes it. Guards against stack traces
// or internal paths reaching a response: anything that is not an ApiError becomes a
// generic 500 whose message says nothing about the program.
import type { FieldError } from '@shared/api-types.js';

export type ErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid_document_status'
  | 'delivery_imported'
  | 'subscription_disabled'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_error'
  | 'rate_limited'
  | 'connection_key_missing'
  | 'remote_unreachable'
  | 'remote_invalid_response'
  | 'remote_timeout'
  | 'internal_error'
  | 'storage_unavailable';

/** Each code's HTTP status (the OpenAPI document lists them from here). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_document_status: 409,
  delivery_imported: 409,
  subscription_disabled: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  rate_limited: 429,
  connection_key_missing: 409,
  remote_unreachable: 502,
  remote_invalid_response: 502,
  remote_timeout: 504,
  internal_error: 500,
  storage_unavailable: 503,
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const notFound = (what = 'resource'): ApiError => new ApiError('not_found', `No such ${what}.`);

export const validationError = (fields: FieldError[]): ApiError =>
  new ApiError('validation_error', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

export const invalidStatus = (status: string, action: string): ApiError =>
  new ApiError('invalid_document_status', `Cannot ${action} a document whose status is ${status}.`, { status });

export const internalError = (): ApiError => new ApiError('internal_error', 'Something went wrong on our side. The failure was logged.');
