// A screen's title line: breadcrumbs (where this screen sits, each step a link, from the
// route table), the title, and its actions.
import type { ReactNode } from 'react';
import { useCrumbs } from '../crumbs.js';
import { Link } from '../router.js';

export function PageHeader({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  const crumbs = useCrumbs();
  return (
    <header className="page-header">
      {crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" className="crumbs">
          <ol>
            {crumbs.map((c) => (
              <li key={c.to}>
                <Link to={c.to} aria-current={c.current ? 'page' : undefined}>
                  {c.label}
                </Link>
              </li>
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
