// The inspector's filters: direction, event type, outcome, subscription, inbox,
// origin (endpoint checks), document and free text. Selects apply at once; typed text applies after a short
// pause (so the list is not asked again on every key). The values come from the URL
// and every change goes back to it (see filters.ts).
import { useEffect, useId, useRef, useState } from 'react';
import { EVENT_TYPES } from '@shared/api-types.js';
import { FILTER_OUTCOMES, type InspectorFilters } from '@shared/inspector-types.js';
import { activeFilterCount, OUTCOME_LABELS, type FilterParam } from './filters.js';

export interface FilterOptions {
  subscriptions: { id: string; label: string }[];
  inboxes: { id: string; name: string }[];
}

export interface FilterBarProps {
  filters: InspectorFilters;
  options: FilterOptions;
  onChange: (param: FilterParam, value: string | undefined) => void;
  onClear: () => void;
  /** Pause before typed text applies. */
  debounceMs?: number;
}

function TextFilter(props: {
  label: string;
  param: FilterParam;
  value: string | undefined;
  placeholder: string;
  onChange: FilterBarProps['onChange'];
  debounceMs: number;
  className?: string;
}) {
  const id = useId();
  const [text, setText] = useState(props.value ?? '');
  const applied = useRef(props.value ?? '');
  // The URL changed from elsewhere (back button, "Clear"): show what it says.
  useEffect(() => {
    if ((props.value ?? '') !== applied.current) {
      applied.current = props.value ?? '';
      setText(props.value ?? '');
    }
  }, [props.value]);
  const { onChange, param, debounceMs } = props;
  useEffect(() => {
    if (text.trim() === applied.current.trim()) return;
    const t = setTimeout(() => {
      applied.current = text.trim();
      onChange(param, text.trim() || undefined);
    }, debounceMs);
    return () => clearTimeout(t);
  }, [text, onChange, param, debounceMs]);
  return (
    <div className={`filter ${props.className ?? ''}`}>
      <label htmlFor={id} className="filter-label">
        {props.label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={props.placeholder}
        onChange={(e) => setText(e.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
    </div>
  );
}

/** A choice as [value, label]. */
type Choice = readonly [string, string];

function SelectFilter(props: {
  label: string;
  param: FilterParam;
  value: string | undefined;
  onChange: FilterBarProps['onChange'];
  choices: readonly Choice[];
  anyLabel: string;
}) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id} className="filter-label">
        {props.label}
      </label>
      <select id={id} value={props.value ?? ''} onChange={(e) => props.onChange(props.param, e.target.value || undefined)}>
        <option value="">{props.anyLabel}</option>
        {props.choices.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

const ORIGINS: readonly Choice[] = [['check', 'Checks']];

const DIRECTIONS: readonly Choice[] = [
  ['delivery', 'Sent'],
  ['capture', 'Received'],
];

export function FilterBar({ filters, options, onChange, onClear, debounceMs = 300 }: FilterBarProps) {
  const count = activeFilterCount(filters);
  // A value from the URL that is not among the options (a deleted inbox, a typed link) stays selectable.
  const subs =
    filters.subscription_id && !options.subscriptions.some((s) => s.id === filters.subscription_id)
      ? [...options.subscriptions, { id: filters.subscription_id, label: filters.subscription_id }]
      : options.subscriptions;
  const inboxes =
    filters.inbox_id && !options.inboxes.some((i) => i.id === filters.inbox_id)
      ? [...options.inboxes, { id: filters.inbox_id, name: filters.inbox_id }]
      : options.inboxes;
  const events =
    filters.event_type && !(EVENT_TYPES as readonly string[]).includes(filters.event_type)
      ? [...EVENT_TYPES, filters.event_type]
      : EVENT_TYPES;
  return (
    <form className="filter-bar" role="search" aria-label="Filter the inspector" onSubmit={(e) => e.preventDefault()}>
      <TextFilter
        label="Search"
        param="q"
        value={filters.q}
        placeholder="id, URL, error or body text"
        onChange={onChange}
        debounceMs={debounceMs}
        className="filter-grow"
      />
      <SelectFilter label="Direction" param="kind" value={filters.kind} onChange={onChange} anyLabel="Both" choices={DIRECTIONS} />
      <SelectFilter
        label="Event type"
        param="event"
        value={filters.event_type}
        onChange={onChange}
        anyLabel="Any"
        choices={events.map((t) => [t, t])}
      />
      <SelectFilter
        label="Outcome"
        param="outcome"
        value={filters.outcome}
        onChange={onChange}
        anyLabel="Any"
        choices={FILTER_OUTCOMES.map((o) => [o, OUTCOME_LABELS[o]])}
      />
      <SelectFilter
        label="Subscription"
        param="subscription"
        value={filters.subscription_id}
        onChange={onChange}
        anyLabel="Any"
        choices={subs.map((s) => [s.id, s.label])}
      />
      <SelectFilter
        label="Inbox"
        param="inbox"
        value={filters.inbox_id}
        onChange={onChange}
        anyLabel="Any"
        choices={inboxes.map((i) => [i.id, i.name])}
      />
      <SelectFilter label="Origin" param="origin" value={filters.origin} onChange={onChange} anyLabel="Any" choices={ORIGINS} />
      <TextFilter
        label="Document"
        param="document"
        value={filters.document_id}
        placeholder="doc_…"
        onChange={onChange}
        debounceMs={debounceMs}
      />
      <div className="filter filter-actions">
        <button type="button" className="btn btn-small btn-ghost" onClick={onClear} disabled={count === 0}>
          Clear{count > 0 ? ` (${count})` : ''}
        </button>
      </div>
    </form>
  );
}
