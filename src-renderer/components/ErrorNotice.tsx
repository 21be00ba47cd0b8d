// An error as a person reads it: the API's own message (always as text), and its code
// in small print for bug reports.
import { ApiRequestError, messageOf } from '../api/errors.js';

export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  const code = error instanceof ApiRequestError ? error.code : undefined;
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong className="notice-title">{title}</strong>}
      <span className="notice-message">{messageOf(error)}</span>
      {code && <span className="notice-code">{code}</span>}
    </div>
  );
}
