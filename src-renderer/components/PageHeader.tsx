// A screen's title line: breadcrumbs (where this screen sits), the title, and its actions.
import type { ReactNode } from 'react';
import { Link } from '../router.js';

export interface Crumb {
  label: string;
  to?: string;
}

export function PageHeader({
  title,
  crumbs,
  actions,
  children,
}: {
  title: ReactNode;
  crumbs?: Crumb[];
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="page-header">
      {crumbs && crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" className="crumbs">
          <ol>
            {crumbs.map((c, i) => (
              <li key={i}>{c.to ? <Link to={c.to}>{c.label}</Link> : <span>{c.label}</span>}</li>
            ))}
          </ol>
        </nav>
      )}
      <div className="page-header-row">
        <h1 className="page-title">{title}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </header>
  );
}
