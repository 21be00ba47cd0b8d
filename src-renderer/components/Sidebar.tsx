// The sidebar: brand, company, the connection switcher, the navigation derived from the
// route table, the test clock and the live state.
// Beside the content on wide windows; a drawer opened by the header's "Menu" under 1000 px
// (Layout.tsx), which takes focus when it opens.
import { useEffect, useRef } from 'react';
import { Link, href } from '../router.js';
import { NAV, isCurrentSection, type Route } from '../routes.js';
import { LiveIndicator } from './LiveIndicator.js';
import { ConnectionSwitcher } from './ConnectionSwitcher.js';
import { ClockControl } from './ClockControl.js';
import { LocalOnlyTool } from './LocalOnly.js';

export function Sidebar({ company, current, open }: { company: string; current?: Route; open: boolean }) {
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    if (open) nav.current?.querySelector<HTMLAnchorElement>('a')?.focus();
  }, [open]);
  return (
    <aside className="sidebar" id="sidebar">
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
      <nav aria-label="Main" ref={nav}>
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
        <LocalOnlyTool what="Test clock">
          <ClockControl />
        </LocalOnlyTool>
        <LiveIndicator />
      </div>
    </aside>
  );
}
