// The side-by-side view of one request: what the local delivery sent and what the inbox
// received, full width under the list.
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { pairQuery } from '../../api/inspector.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Loading } from '../../components/States.js';
import { CompareView } from './CompareView.js';

export function ComparePanel({ captureId, onClose }: { captureId: string; onClose: () => void }) {
  const q = useQuery(pairQuery(captureId));
  // It opens below the list and the detail: bring it to the eye, and focus to it.
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: 'start' });
    panel.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="card compare-card" aria-labelledby="compare-title" ref={panel} tabIndex={-1}>
      <div className="compare-top">
        <h2 id="compare-title" className="card-title">
          Sent and received, side by side
          {q.data && <span className="mono subtle"> · {q.data.delivery_id}</span>}
        </h2>
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      {q.isPending ? <Loading what="both requests" /> : q.isError ? <ErrorNotice error={q.error} /> : <CompareView pair={q.data} />}
    </section>
  );
}
