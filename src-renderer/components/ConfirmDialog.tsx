// "Are you sure?" for actions that cannot be undone. The safe choice has focus first.
import type { ReactNode } from 'react';
import { Modal } from './Modal.js';
import { ErrorNotice } from './ErrorNotice.js';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  error?: unknown;
  danger?: boolean;
}

export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel, busy, error, danger = true }: ConfirmDialogProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      alert
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel} data-autofocus>
            Cancel
          </button>
          <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={onConfirm} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </>
      }
    >
      <div className="confirm-text">{children}</div>
      {error != null && <ErrorNotice error={error} />}
    </Modal>
  );
}
