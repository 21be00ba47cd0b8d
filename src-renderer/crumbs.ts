// The breadcrumbs of the current page (the named routes above it, then the page itself
// when it has a name: the whole path, each step a link), derived from the route table
// by the app and read by PageHeader, so no screen writes its own.
import { createContext, useContext } from 'react';

export interface Crumb {
  label: string;
  to: string;
  /** The page one is on (marked aria-current). */
  current?: boolean;
}

export const CrumbsContext = createContext<readonly Crumb[]>([]);

export function useCrumbs(): readonly Crumb[] {
  return useContext(CrumbsContext);
}
