// Errors as the console shows them: the contract's shape
// {"error":{"code","message","details"}} kept whole, so screens can put a field's
// message next to that field and show the API's own words everywhere else.

export interface FieldError {
  field: string;
  message: string;
}

export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  constructor(
    /** HTTP status; 0 when the service could not be reached at all. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The per-field messages of a 422 (`details.fields`). */
  get fields(): FieldError[] {
    const raw = this.details?.fields;
    if (!Array.isArray(raw)) return [];
    return raw.filter((f): f is FieldError => typeof f?.field === 'string' && typeof f?.message === 'string');
  }

  /** The message for one field (or a nested field of it, e.g. `recipients.0.email`), if the API named it. */
  fieldMessage(field: string): string | undefined {
    const hit = this.fields.find((f) => f.field === field || f.field.startsWith(`${field}.`));
    return hit && (hit.field === field ? hit.message : `${hit.field.slice(field.length + 1)}: ${hit.message}`);
  }
}

function isErrorBody(v: unknown): v is { error: { code: string; message: string; details?: Record<string, unknown> } } {
  const e = (v as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof e?.code === 'string' && typeof e?.message === 'string';
}

/** Builds the error for a non-2xx answer, whatever its body. */
export async function errorFromResponse(res: Response): Promise<ApiRequestError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  if (isErrorBody(body)) return new ApiRequestError(res.status, body.error.code, body.error.message, body.error.details);
  return new ApiRequestError(res.status, 'http_error', `The service answered ${res.status} ${res.statusText || ''}`.trim() + '.');
}

export function networkError(cause: unknown): ApiRequestError {
  const why = cause instanceof Error && cause.message ? ` (${cause.message})` : '';
  return new ApiRequestError(0, 'network_error', `Could not reach the local service${why}. Is Countersign still running?`);
}

/** A person-readable message for anything thrown. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiRequestError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
