// The console's list table: scrolls sideways inside its card on narrow windows, tells
// screen readers what it lists (a hidden caption) and heads each column. The rows are
// the caller's. `actions` adds a last column for row buttons, named for screen readers
// only.
import type { ReactNode } from 'react';

export interface DataTableProps {
  caption: string;
  columns: string[];
  actions?: boolean;
  children: ReactNode;
}

export function DataTable({ caption, columns, actions, children }: DataTableProps) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
