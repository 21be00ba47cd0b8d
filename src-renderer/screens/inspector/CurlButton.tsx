// "Copy as curl": gets the command, copies it, and shows it too (so it can be copied by
// hand where the clipboard is refused).
import { useState } from 'react';
import { messageOf } from '../../api/errors.js';
import { copyText } from '../../platform.js';

export function CurlButton({ load }: { load: () => Promise<string> }) {
  const [state, setState] = useState<{ text?: string; copied?: boolean; error?: string; busy?: boolean }>({});
  const run = async () => {
    setState({ busy: true });
    try {
      const text = await load();
      setState({ text, copied: await copyText(text) });
    } catch (err) {
      setState({ error: messageOf(err) });
    }
  };
  return (
    <>
      <button type="button" className="btn btn-small" onClick={run} disabled={state.busy}>
        Copy as curl
      </button>
      <span className="copy-status" role="status" aria-live="polite">
        {state.copied ? 'Copied to the clipboard.' : state.text ? 'Could not copy: select the command below.' : (state.error ?? '')}
      </span>
      {state.text && (
        <pre className="code-block curl-block" aria-label="curl command">
          {state.text}
        </pre>
      )}
    </>
  );
}
