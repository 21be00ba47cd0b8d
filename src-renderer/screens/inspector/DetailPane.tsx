// The inspector's detail pane: the chosen delivery or capture. Beside the list on wide
// windows; under it on narrow ones, where choosing a row scrolls the pane into view and
// gives it focus, so the detail opens where the eye is.
import { useEffect, useRef } from 'react';
import { CaptureDetail } from './CaptureDetail.js';
import { DeliveryDetail } from './DeliveryDetail.js';

/** Must match the width under which inspector.css stacks the list and the detail. */
export const STACKED_QUERY = '(max-width: 1280px)';

function Detail({ selected, onCompare }: { selected: string | null; onCompare: (captureId: string) => void }) {
  if (!selected) return <p className="detail-empty subtle">Choose a row to see its headers, bodies, timing and verdict.</p>;
  const id = selected.slice(2);
  return selected.startsWith('d:') ? (
    <DeliveryDetail key={id} id={id} onCompare={onCompare} />
  ) : (
    <CaptureDetail key={id} id={id} onCompare={onCompare} />
  );
}

/** `chosen` counts rows chosen in this page (not opened from the URL), so only a choice moves the eye. */
export function DetailPane({
  selected,
  chosen,
  onCompare,
}: {
  selected: string | null;
  chosen: number;
  onCompare: (captureId: string) => void;
}) {
  const pane = useRef<HTMLElement>(null);
  useEffect(() => {
    if (chosen === 0 || !pane.current || !window.matchMedia?.(STACKED_QUERY).matches) return;
    pane.current.scrollIntoView({ block: 'start' });
    pane.current.focus({ preventScroll: true });
  }, [chosen]);
  return (
    <section className="card detail-card" aria-label="Detail" ref={pane} tabIndex={-1}>
      <Detail selected={selected} onCompare={onCompare} />
    </section>
  );
}
