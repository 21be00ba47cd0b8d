// The frame of every screen: a quiet sidebar (brand, company, the navigation derived
// from the route table, live state), a header, and the content area, with a skip link
// for keyboard users. Under 1000 px the sidebar folds away behind the header's "Menu"
// button (a drawer over the page, closed by a link, Escape or a click beside it).
// The header's tools slot (`.frame-tools`) is where frame-wide controls go (which
// connection, the test clock); it is shown at every width once it holds something.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { statusQuery } from '../api/session.js';
import { Sidebar } from './Sidebar.js';
import { ConnectionChip } from './ConnectionChip.js';
import type { Route } from '../routes.js';

export function Layout({ company, current, children }: { company: string; current?: Route; children: ReactNode }) {
  const status = useQuery(statusQuery());
  const warnings = status.data?.warnings ?? [];
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // A new screen closes the drawer.
  useEffect(() => setMenuOpen(false), [current]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <div className={menuOpen ? 'shell menu-open' : 'shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Sidebar company={company} current={current} open={menuOpen} />
      {menuOpen && <div className="drawer-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <div className="frame-main">
        <header className="topbar">
          <button
            ref={menuButton}
            type="button"
            className="btn menu-button"
            aria-expanded={menuOpen}
            aria-controls="sidebar"
            onClick={() => setMenuOpen((o) => !o)}
          >
            <span aria-hidden="true">☰</span> Menu
          </button>
          <span className="topbar-brand">Countersign</span>
          <div className="frame-tools">
            <ConnectionChip />
          </div>
        </header>
        <main id="main" className="content" tabIndex={-1}>
          {warnings.map((w, i) => (
            <div className="notice notice-warning" role="alert" key={i}>
              {w}
            </div>
          ))}
          {children}
        </main>
      </div>
    </div>
  );
}
