// The live delivery inspector: every delivery as it leaves and every request as it
// lands, in one live list with filters (kept in the URL), a detail pane, the sent and
// received requests side by side, a small chart of the last hour, and export/import.
import { useCallback, useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { feedQuery, statsQuery } from '../../api/inspector.js';
import { useInspectorLive } from '../../api/inspector-live.js';
import type { InspectorRow } from '@shared/inspector-types.js';
import { inboxListQuery } from '../../api/receiver.js';
import { allSubscriptionsQuery } from '../../api/webhooks.js';
import { LOCAL_CONNECTION } from '@shared/connection-types.js';
import type { Subscription } from '@shared/api-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/States.js';
import { useLocation, useSearchParamSetter } from '../../router.js';
import { VirtualTimeNotice } from '../../components/VirtualTimeNotice.js';
import { useTitle } from '../../use-title.js';
import { ComparePanel } from './ComparePanel.js';
import { DetailPane } from './DetailPane.js';
import { ExportImport } from './ExportImport.js';
import { FeedSection } from './FeedSection.js';
import { FilterBar, type FilterOptions } from './FilterBar.js';
import { activeFilterCount, clearedFilters, filterPatch, filtersFromSearch, type FilterParam } from './filters.js';
import { StatsChart } from './StatsChart.js';

/** "Orders endpoint · all · wh_3hK9…": the inbox it reaches, else its host and path. */
function subscriptionLabel(s: Subscription, inboxNames: Map<string, string>): string {
  const inbox = /\/in\/(inb_[0-9A-Za-z]+)/.exec(s.url)?.[1];
  let where = inbox ? inboxNames.get(inbox) : undefined;
  if (!where) {
    try {
      const u = new URL(s.url);
      where = `${u.host}${u.pathname}`;
    } catch {
      where = s.url;
    }
  }
  return `${where} · ${s.type} · ${s.public_id.slice(0, 10)}…`;
}

export function InspectorScreen() {
  useTitle('Inspector');
  const { search } = useLocation();
  const setParams = useSearchParamSetter();
  const searchKey = search.toString();
  // A new URLSearchParams comes with every render: the query string is the identity.
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(searchKey)), [searchKey]);
  const selected = search.get('row');
  const compare = search.get('compare');

  const feed = useInfiniteQuery(feedQuery(filters));
  useInspectorLive(filters);
  const stats = useQuery(statsQuery(filters));
  const inboxes = useQuery(inboxListQuery());
  const subs = useQuery(allSubscriptionsQuery(LOCAL_CONNECTION));

  const rows = useMemo(() => feed.data?.pages.flatMap((p) => p.data) ?? [], [feed.data]);
  const inboxNames = useMemo(() => new Map((inboxes.data ?? []).map((i) => [i.id, i.name])), [inboxes.data]);
  const inboxName = useCallback((id: string) => inboxNames.get(id) ?? null, [inboxNames]);
  const options: FilterOptions = useMemo(
    () => ({
      inboxes: (inboxes.data ?? []).map((i) => ({ id: i.id, name: i.name })),
      subscriptions: (subs.data ?? []).map((s) => ({ id: s.public_id, label: subscriptionLabel(s, inboxNames) })),
    }),
    [inboxes.data, subs.data, inboxNames],
  );

  const onFilter = useCallback((param: FilterParam, value: string | undefined) => setParams(filterPatch(param, value)), [setParams]);
  const onClear = useCallback(() => setParams(clearedFilters()), [setParams]);
  const [chosen, setChosen] = useState(0);
  const onSelect = useCallback(
    (row: InspectorRow) => {
      setParams({ row: row.ref });
      setChosen((n) => n + 1);
    },
    [setParams],
  );
  const onCompare = useCallback((captureId: string) => setParams({ compare: captureId }), [setParams]);
  const filtered = activeFilterCount(filters) > 0;
  return (
    <>
      <PageHeader title="Inspector" actions={<ExportImport />}>
        <p className="page-lede">Every delivery as it leaves and every request as it lands, live.</p>
      </PageHeader>
      <VirtualTimeNotice />
      <section className="card chart-card" aria-label="Chart">
        {stats.data ? (
          <StatsChart stats={stats.data} />
        ) : stats.isError ? (
          <ErrorNotice error={stats.error} title="The chart could not be loaded." />
        ) : (
          <Loading what="the chart" />
        )}
      </section>
      <FilterBar filters={filters} options={options} onChange={onFilter} onClear={onClear} />
      <div className="inspector-split">
        <FeedSection
          feed={feed}
          rows={rows}
          filtered={filtered}
          selected={selected}
          onSelect={onSelect}
          onClear={onClear}
          inboxName={inboxName}
        />
        <DetailPane selected={selected} chosen={chosen} onCompare={onCompare} />
      </div>
      {compare && <ComparePanel key={compare} captureId={compare} onClose={() => setParams({ compare: undefined })} />}
    </>
  );
}
