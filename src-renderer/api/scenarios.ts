// Scenarios and demo packs (/v2/test_helpers/scenarios…, demo_packs…, with the session's
// key). A run or a load makes documents, subscriptions, inboxes and deliveries, so
// those queries go stale; the lists of what ships do not change while the app runs.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PackLoad, ScenarioListing, ScenarioRun } from '@shared/scenario-types.js';
import { serviceApi } from './client.js';
import { documentKeys, inspectorKeys, receiverKeys, scenarioKeys, webhookKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

export const scenarioListQuery = () =>
  queryOptions({
    queryKey: scenarioKeys.list(),
    queryFn: ({ client, signal }) => serviceApi<{ data: ScenarioListing[] }>('/v2/test_helpers/scenarios', { client, signal }),
    staleTime: Infinity,
  });

export const demoPackListQuery = () =>
  queryOptions({
    queryKey: scenarioKeys.packs(),
    queryFn: ({ client, signal }) =>
      serviceApi<{ data: { name: string; description: string }[] }>('/v2/test_helpers/demo_packs', { client, signal }),
    staleTime: Infinity,
  });

const madeByARun = () => [documentKeys.all, webhookKeys.all, receiverKeys.all, inspectorKeys.all, inspectorKeys.feeds()];

export const useRunScenario = () =>
  useRefreshingMutation({
    mutationFn: (name: string, client) =>
      serviceApi<ScenarioRun>('/v2/test_helpers/scenarios/runs', { method: 'POST', body: { name }, client }),
    stale: madeByARun,
  });

export const useLoadDemoPack = () =>
  useRefreshingMutation({
    mutationFn: (name: string, client) =>
      serviceApi<PackLoad>(`/v2/test_helpers/demo_packs/${encodeURIComponent(name)}/load`, { method: 'POST', body: {}, client }),
    stale: madeByARun,
  });

/** The export as a file to save (a pack another machine loads with --demo). */
export const exportDemoPack = (keepPeople: boolean, client: QueryClient) =>
  serviceApi<unknown>(`/v2/test_helpers/demo_packs/export?name=exported&keep_people=${keepPeople}`, { client });
