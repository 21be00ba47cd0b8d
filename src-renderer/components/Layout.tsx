// The frame of every screen: a quiet sidebar (brand, company, the navigation derived
// from the route table, live state) and the content area, with a skip link for
// keyboard users.
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, href } from '../router.js';
import { NAV, isCurrentSection, type Route } from '../routes.js';
import { statusQuery } from '../api/session.js';
import { LiveIndicator } from './LiveIndicator.js';
import { ClockControl } from './ClockControl.js';
import { ConnectionSwitcher } from './ConnectionSwitcher.js';

export function Layout({ company, current, children }: { company: string; current?: Route; children: ReactNode }) {
  const status = useQuery(statusQuery());
  const warnings = status.data?.warnings ?? [];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ✓
          </span>
          <span className="brand-name">Countersign</span>
        </div>
        <p className="company" title="The company this console acts for">
          {company}
        </p>
        <ConnectionSwitcher />
        <nav aria-label="Main">
          {NAV.map((group, i) => (
            <div className="nav-group" key={i}>
              {group.label && <p className="nav-group-label">{group.label}</p>}
              <ul>
                {group.items.map((item) => {
                  const active = isCurrentSection(item, current);
                  return (
                    <li key={item.path}>
                      <Link
                        to={href(item.path)}
                        className={active ? 'nav-link active' : 'nav-link'}
                        aria-current={active ? 'page' : undefined}
                      >
                        {item.label}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
        <div className="sidebar-foot">
          <ClockControl />
          <LiveIndicator />
        </div>
      </aside>
      <main id="main" className="content" tabIndex={-1}>
        {warnings.map((w, i) => (
          <div className="notice notice-warning" role="alert" key={i}>
            {w}
          </div>
        ))}
        {children}
      </main>
    </div>
  );
}
