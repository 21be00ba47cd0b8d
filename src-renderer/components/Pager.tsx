// Cursor paging (the API's starting_after): a stack of cursors lets "Previous" go back
// without the API needing backwards paging.
import { useCallback, useState } from 'react';

export function useCursorPager() {
  const [stack, setStack] = useState<string[]>([]);
  const cursor = stack[stack.length - 1];
  const next = useCallback((lastId: string) => setStack((s) => [...s, lastId]), []);
  const prev = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor, page: stack.length + 1, next, prev, reset, hasPrev: stack.length > 0 };
}

export interface PagerProps {
  page: number;
  hasPrev: boolean;
  hasMore: boolean;
  onPrev: () => void;
  onNext: () => void;
  label: string;
}

export function Pager({ page, hasPrev, hasMore, onPrev, onNext, label }: PagerProps) {
  if (!hasPrev && !hasMore) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="btn btn-small" onClick={onPrev} disabled={!hasPrev}>
        Previous
      </button>
      <span className="pager-page">Page {page}</span>
      <button type="button" className="btn btn-small" onClick={onNext} disabled={!hasMore}>
        Next
      </button>
    </nav>
  );
}
