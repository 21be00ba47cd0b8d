// The inspector's filters live in the page's query string, so that a reload, a link or
// the back button keeps them. Short, readable parameter names; unknown or malformed
// values are dropped rather than sent to the API.
import { FILTER_OUTCOMES, type InspectorFilters } from '@shared/inspector-types.js';

/** URL parameter → API filter name. */
export const FILTER_PARAMS = {
  kind: 'kind',
  event: 'event_type',
  subscription: 'subscription_id',
  inbox: 'inbox_id',
  outcome: 'outcome',
  document: 'document_id',
  origin: 'origin',
  q: 'q',
} as const satisfies Record<string, keyof InspectorFilters>;

export type FilterParam = keyof typeof FILTER_PARAMS;

const KINDS = ['delivery', 'capture'] as const;

export const OUTCOME_LABELS: Record<(typeof FILTER_OUTCOMES)[number], string> = {
  succeeded: 'Succeeded (sent)',
  failed: 'Failed (sent)',
  pending: 'Pending or retrying (sent)',
  cancelled: 'Cancelled (sent)',
  skipped: 'Skipped: subscription disabled',
  verified: 'Verified (received)',
  unverified: 'Not verified (received)',
  duplicate: 'Duplicate (received)',
};

export function filtersFromSearch(search: URLSearchParams): InspectorFilters {
  const f: InspectorFilters = {};
  const get = (p: FilterParam) => search.get(p)?.trim().slice(0, 200) || undefined;
  const kind = get('kind');
  if (kind && (KINDS as readonly string[]).includes(kind)) f.kind = kind as InspectorFilters['kind'];
  const outcome = get('outcome');
  if (outcome && (FILTER_OUTCOMES as readonly string[]).includes(outcome)) f.outcome = outcome as InspectorFilters['outcome'];
  const event = get('event');
  if (event) f.event_type = event;
  const sub = get('subscription');
  if (sub) f.subscription_id = sub;
  const inbox = get('inbox');
  if (inbox) f.inbox_id = inbox;
  const doc = get('document');
  if (doc) f.document_id = doc;
  if (get('origin') === 'check') f.origin = 'check';
  const q = get('q');
  if (q) f.q = q;
  return f;
}

/** The query-string patch that sets one filter (undefined removes it). */
export function filterPatch(param: FilterParam, value: string | undefined): Record<string, string | undefined> {
  return { [param]: value?.trim() ? value.trim() : undefined };
}

export function activeFilterCount(f: InspectorFilters): number {
  return Object.values(f).filter((v) => v !== undefined && v !== '').length;
}

export function clearedFilters(): Record<string, undefined> {
  return Object.fromEntries(Object.keys(FILTER_PARAMS).map((k) => [k, undefined]));
}
