import { useEffect } from 'react';

/** Sets the window title for the current screen. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Countersign` : 'Countersign';
  }, [title]);
}
