// A windowed list: of N rows of one fixed height, only those in view (plus a few above
// and below) are in the DOM, so ten thousand rows scroll as smoothly as ten. A sizer as
// tall as every row together gives the scroll bar its true length; the visible slice is
// moved into place with a transform. Both are set through React's style prop, which
// React applies through the CSSOM (element.style), not as a style attribute: the
// page's Content-Security-Policy (style-src 'self') governs markup, not the CSSOM.
//
// It is a listbox: one row is selected (aria-activedescendant), arrow keys, Page
// Up/Down, Home and End move the selection and scroll it into view; every row says
// its position in the whole list (aria-posinset / aria-setsize).
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Must equal the rows' CSS height. */
  rowHeight: number;
  getKey: (item: T) => string;
  renderRow: (item: T, index: number, selected: boolean) => ReactNode;
  selectedKey?: string | null;
  onSelect: (item: T, index: number) => void;
  /** Called when the last rows come into view (load more). */
  onEndReached?: () => void;
  label: string;
  /** Rows drawn beyond the visible ones, on each side. */
  overscan?: number;
  /** Height assumed before the list could be measured (and where it cannot be: jsdom). */
  initialHeight?: number;
  className?: string;
}

// The list's scroll position and visible height, kept up to date: the height follows
// resizes, the scroll position at most once per animation frame.
function useViewport(ref: RefObject<HTMLDivElement | null>, initialHeight: number) {
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(initialHeight);
  const frame = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      if (el.clientHeight > 0) setHeight(el.clientHeight);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  // One state update per animation frame, however many scroll events arrive.
  const onScroll = useCallback(() => {
    if (frame.current !== null) return;
    const read = () => {
      frame.current = null;
      if (ref.current) setScrollTop(ref.current.scrollTop);
    };
    if (typeof requestAnimationFrame === 'undefined') return read();
    frame.current = requestAnimationFrame(read);
  }, [ref]);

  return { scrollTop, setScrollTop, height, onScroll };
}

// The row a navigation key moves the selection to (from -1: nothing selected yet), or
// undefined for any other key.
function keyTarget(key: string, from: number, n: number, page: number): number | undefined {
  const to: Record<string, number> = {
    ArrowDown: Math.min(n - 1, from + 1),
    ArrowUp: Math.max(0, from - 1),
    PageDown: Math.min(n - 1, from + page),
    PageUp: Math.max(0, from - page),
    Home: 0,
    End: n - 1,
  };
  return to[key];
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, rowHeight, getKey, selectedKey, onSelect, onEndReached, overscan = 8, initialHeight = 600 } = props;
  const ref = useRef<HTMLDivElement>(null);
  const idBase = useId();
  const { scrollTop, setScrollTop, height, onScroll } = useViewport(ref, initialHeight);

  const n = items.length;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(n, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  const nearEnd = n > 0 && last >= n - overscan;
  useEffect(() => {
    if (nearEnd) onEndReached?.();
  }, [nearEnd, n, onEndReached]);

  const selectedIndex = selectedKey ? items.findIndex((it) => getKey(it) === selectedKey) : -1;

  const reveal = (index: number) => {
    const el = ref.current;
    if (!el) return;
    const top = index * rowHeight;
    const view = el.clientHeight || height;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + view) el.scrollTop = top + rowHeight - view;
    setScrollTop(el.scrollTop);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (n === 0) return;
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const next = keyTarget(e.key, selectedIndex, n, page);
    if (next === undefined) return;
    e.preventDefault();
    onSelect(items[next], next);
    reveal(next);
  };

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i];
    const key = getKey(item);
    const selected = key === selectedKey;
    rows.push(
      <div
        key={key}
        id={`${idBase}-row-${i}`}
        role="option"
        aria-selected={selected}
        aria-posinset={i + 1}
        aria-setsize={n}
        className={selected ? 'vlist-row vlist-row-selected' : 'vlist-row'}
        onClick={() => onSelect(item, i)}
      >
        {props.renderRow(item, i, selected)}
      </div>,
    );
  }

  return (
    <div
      ref={ref}
      className={`vlist ${props.className ?? ''}`}
      role="listbox"
      aria-label={props.label}
      tabIndex={0}
      aria-activedescendant={selectedIndex >= first && selectedIndex < last ? `${idBase}-row-${selectedIndex}` : undefined}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
    >
      <div className="vlist-sizer" role="presentation" style={{ height: n * rowHeight }}>
        <div className="vlist-window" role="presentation" style={{ transform: `translateY(${first * rowHeight}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
