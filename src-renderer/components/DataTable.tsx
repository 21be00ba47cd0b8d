// The console's list table: scrolls sideways inside its card on narrow windows, tells
// screen readers what it lists (a hidden caption) and heads each column. The rows are
// the caller's. `actions` adds a last column for row buttons, named for screen readers
// only. A secondary column (`{ label, secondary: true }`, its cells `col-secondary` too)
// is dropped when the table has less than 760 px; its value stays in the detail.
import type { ReactNode } from 'react';

export type Column = string | { label: string; secondary?: boolean };

export interface DataTableProps {
  caption: string;
  columns: Column[];
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
            {columns.map((c) => {
              const { label, secondary } = typeof c === 'string' ? { label: c, secondary: false } : c;
              return (
                <th key={label} scope="col" className={secondary ? 'col-secondary' : undefined}>
                  {label}
                </th>
              );
            })}
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
