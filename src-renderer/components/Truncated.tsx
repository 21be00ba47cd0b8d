// A secondary value in a narrow place (a table cell, a fact): cut with an ellipsis at
// a width that keeps the row on one line, the full value on hover (title) and, where the
// row leads to one, in its detail. Never wraps one letter a line.
import type { ReactNode } from 'react';

export function Truncated({ text, className, children }: { text: string; className?: string; children?: ReactNode }) {
  return (
    <span className={`truncate truncated${className ? ` ${className}` : ''}`} title={text}>
      {children ?? text}
    </span>
  );
}
