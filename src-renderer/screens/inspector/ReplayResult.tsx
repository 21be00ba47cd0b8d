// What a replay got back: the status (or that nothing answered), where it went, how long
// it took, which secret signed it, and the answer's body as text.
import type { ReplayResult as Result } from '@shared/receiver-types.js';
import { BodyView } from './BodyView.js';

export function ReplayResult({ r }: { r: Result }) {
  return (
    <div className="replay-result" role="status" tabIndex={-1}>
      <p>
        {r.response ? (
          <span className={`badge badge-${r.response.status < 300 ? 'success' : 'danger'}`}>HTTP {r.response.status}</span>
        ) : (
          <span className="badge badge-danger">no answer</span>
        )}{' '}
        <span className="mono break">{r.url}</span> <span className="subtle">· {r.duration_ms} ms</span>
        {r.request.secret_fingerprint && <span className="subtle"> · signed with {r.request.secret_fingerprint}</span>}
      </p>
      {r.error && <p className="attempt-error">{r.error}</p>}
      {r.response && <BodyView label="Answer" text={r.response.body} note={r.response.truncated ? 'first 64 KiB' : undefined} />}
    </div>
  );
}
