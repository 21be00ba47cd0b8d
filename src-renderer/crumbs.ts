// The breadcrumbs of the current page (the named routes above it, each a link), derived
// from the route table by the app and read by PageHeader, so no screen writes its own.
import { createContext, useContext } from 'react';

export interface Crumb {
  label: string;
  to: string;
}

export const CrumbsContext = createContext<readonly Crumb[]>([]);

export function useCrumbs(): readonly Crumb[] {
  return useContext(CrumbsContext);
}
