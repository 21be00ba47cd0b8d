// Export and import of captures and delivery logs as one file (secrets never in it: the
// backend removes them). In the desktop app the native save and open dialogs are used
// (window.countersign); in a browser, a download and a file picker.
import { useRef, useState, type RefObject } from 'react';
import { exportFile, useImport } from '../../api/inspector.js';
import { messageOf } from '../../api/errors.js';
import type { ImportResult } from '@shared/receiver-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { desktopBridge } from '../../platform.js';

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function describe(r: ImportResult): string {
  const parts = [
    `${r.deliveries_added} deliveries`,
    `${r.events_added} events`,
    `${r.captures_added} captures`,
    `${r.inboxes_created} inboxes`,
  ];
  const present = r.already_present ? `; ${r.already_present} already here, left alone` : '';
  const skipped = r.skipped ? `; ${r.skipped} unreadable, skipped` : '';
  return `Imported ${parts.join(', ')}${present}${skipped}.`;
}

// The Import button is the control; this input only opens the browser's file picker.
function HiddenFilePicker({ inputRef, onText }: { inputRef: RefObject<HTMLInputElement | null>; onText: (text: string) => void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept="application/json,.json"
      className="visually-hidden"
      tabIndex={-1}
      aria-hidden="true"
      onChange={async (e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) onText(await file.text());
      }}
    />
  );
}

export function ExportImport() {
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const imp = useImport();

  const doExport = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const { text, filename } = await exportFile();
      const name = filename ?? 'countersign-export.json';
      const bridge = desktopBridge();
      if (bridge) {
        const saved = await bridge.saveExport(name, text);
        setNote(saved.saved ? `Saved to ${saved.path}.` : null);
      } else {
        download(name, text);
        setNote(`Downloaded ${name}.`);
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const importText = (text: string) => {
    setError(null);
    setNote(null);
    try {
      JSON.parse(text);
    } catch {
      setError(new Error('That file is not JSON: choose a file made by Export.'));
      return;
    }
    imp.mutate(text, { onSuccess: (r) => setNote(describe(r)), onError: setError });
  };

  const doImport = async () => {
    const bridge = desktopBridge();
    if (!bridge) return picker.current?.click();
    try {
      const opened = await bridge.openImport();
      if (opened.opened) importText(opened.contents);
    } catch (err) {
      setError(new Error(messageOf(err)));
    }
  };

  return (
    <div className="export-import">
      <button type="button" className="btn btn-small" onClick={doExport} disabled={busy}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
      <button type="button" className="btn btn-small" onClick={doImport} disabled={imp.isPending}>
        {imp.isPending ? 'Importing…' : 'Import'}
      </button>
      <HiddenFilePicker inputRef={picker} onText={importText} />
      <span className="export-note" role="status" aria-live="polite">
        {note}
      </span>
      {error != null && <ErrorNotice error={error} title="Export or import failed." />}
    </div>
  );
}
