// Copies a value and says so (a polite live region announces "Copied").
import { useEffect, useState } from 'react';
import { copyText } from '../platform.js';

export function CopyButton({ value, label = 'Copy', what }: { value: string; label?: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <span className="copy">
      <button
        type="button"
        className="btn btn-small"
        aria-label={what ? `${label} ${what}` : label}
        onClick={async () => setState((await copyText(value)) ? 'copied' : 'failed')}
      >
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span className="copy-status" role="status" aria-live="polite">
        {state === 'copied' ? 'Copied to the clipboard.' : state === 'failed' ? 'Could not copy: select the text and copy it by hand.' : ''}
      </span>
    </span>
  );
}
