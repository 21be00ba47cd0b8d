// A secret shown once: the value (selectable, as text), a copy button and the plain
// warning that it will not be shown again. Used for webhook secrets and API keys.
import { CopyButton } from './CopyButton.js';

export function SecretReveal({ value, what, kept }: { value: string; what: string; kept: string }) {
  return (
    <div className="secret">
      <p className="notice notice-warning">
        Copy this {what} now. It will not be shown again. {kept}
      </p>
      <div className="secret-row">
        <code className="secret-value" aria-label={what}>
          {value}
        </code>
        <CopyButton value={value} what={what} />
      </div>
    </div>
  );
}
