// A titled card: a section named by its own heading (so it shows in screen readers'
// landmark lists). `flush` lets a table or list run to the card's edges while the
// heading keeps its padding.
import { useId, type ReactNode } from 'react';

export function Card({ title, flush, children }: { title: ReactNode; flush?: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <section className={flush ? 'card card-flush' : 'card'} aria-labelledby={id}>
      <h2 id={id} className={flush ? 'card-title card-title-pad' : 'card-title'}>
        {title}
      </h2>
      {children}
    </section>
  );
}
