// One named fact of a description list (<dl>): its name and its value, kept together
// in one row. `className` styles the value (e.g. "mono" for ids and URLs).
import type { ReactNode } from 'react';

export function Fact({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
