// An imported inbox's own response mode, kept off: the inbox answers with the default
// until the user turns the imported mode on here (one click), or picks another in Edit
// (docs/receiver.md, "Export and import").
import { useUpdateInbox } from '../../api/receiver.js';
import type { Inbox } from '@shared/receiver-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';

export function ImportedMode({ inbox }: { inbox: Inbox }) {
  const update = useUpdateInbox();
  if (!inbox.imported_response) return null;
  return (
    <div className="imported-mode">
      <span>
        <span className="badge badge-neutral">imported</span> its own mode, <strong>{inbox.imported_response_description}</strong>, is off
        until you turn it on.
      </span>{' '}
      <button
        type="button"
        className="btn btn-small"
        disabled={update.isPending}
        onClick={() => update.mutate({ id: inbox.id, patch: { response: inbox.imported_response } })}
        aria-label={`Turn on the imported mode of ${inbox.name}`}
      >
        {update.isPending ? 'Turning on…' : 'Turn it on'}
      </button>
      {update.error != null && <ErrorNotice error={update.error} title="The imported mode was not turned on." />}
    </div>
  );
}
