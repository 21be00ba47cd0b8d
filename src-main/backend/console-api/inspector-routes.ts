// The live delivery inspector's console routes, mounted at /console/api/inspector behind
// the console guard (token, Host, Origin: not checked here). Read-only: the actions
// (redeliver, replay, curl) are the service API's and the receiver's own routes.
// Guards against: another company's deliveries showing (every read is for the console
// session's company; rows.ts), unbounded work from one request (page and id-list sizes
// are capped, the chart's window too), and malformed queries (checked, 422 naming the
// field). Errors leave only as ApiError through the console's error handler.
import { Router } from 'express';
import { z } from 'zod';
import type { HistoryLog } from '../store/history-types.js';
import type { Store } from '../store/store.js';
import type { Receiver } from '../receiver/receiver.js';
import { idParam, parseQuery } from '../http/query.js';
import type { InspectorRow, RowsAnswer } from '@shared/inspector-types.js';
import { captureRow, deliveryRow, filterSchema, matches, RowContext } from './inspector/rows.js';
import { decodeCursor, feedPage } from './inspector/feed.js';
import { computeStats } from './inspector/stats.js';
import { captureDetail, capturePair, deliveryDetail } from './inspector/detail.js';

export interface InspectorDeps {
  history: HistoryLog;
  receiver: Receiver;
  store: Store;
  /** The console session's company (the one the console acts for). */
  companyId: () => Promise<string>;
}

const feedQuery = filterSchema.extend({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(2000).optional(),
});
const statsQuery = filterSchema.extend({ minutes: z.coerce.number().int().min(5).max(180).default(60) });
const listOf = (max: number) =>
  z
    .string()
    .max(max * 80)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(200)).max(max));
const rowsQuery = filterSchema.extend({ refs: listOf(500).optional(), event_ids: listOf(100).optional() });

export function inspectorRoutes(deps: InspectorDeps): Router {
  const r = Router();
  const ctx = async () => new RowContext(await deps.companyId(), deps.history, deps.receiver, deps.store);

  // One page of the merged list, newest first.
  r.get('/feed', async (req, res) => {
    const { limit, cursor, ...filter } = parseQuery(feedQuery, req);
    res.json(feedPage(await ctx(), filter, decodeCursor(cursor), limit));
  });

  // Named rows as they are now (the live list refreshes what the stream names):
  // `refs` are d:<delivery id> / c:<capture id>, `event_ids` bring an event's deliveries.
  // Those that no longer exist or no longer pass the filters are listed in `gone`.
  r.get('/rows', async (req, res) => {
    const { refs = [], event_ids = [], ...filter } = parseQuery(rowsQuery, req);
    const c = await ctx();
    const data: InspectorRow[] = [];
    const gone: string[] = [];
    const seen = new Set<string>();
    const keep = (row: InspectorRow | null, ref: string, ok: boolean) => {
      if (seen.has(ref)) return;
      seen.add(ref);
      if (row && ok) data.push(row);
      else gone.push(ref);
    };
    for (const ref of refs) {
      if (ref.startsWith('d:')) {
        const d = deps.history.getDelivery(ref.slice(2));
        const row = d && d.company_id === c.companyId ? deliveryRow(c, d) : null;
        keep(row, ref, !!row && matches(row, filter));
      } else if (ref.startsWith('c:')) {
        const cap = deps.receiver.getCapture(ref.slice(2));
        const row = cap ? captureRow(c, cap) : null;
        keep(row, ref, !!row && matches(row, filter, cap));
      } else {
        gone.push(ref);
      }
    }
    for (const eventId of event_ids) {
      const page = deps.history.listDeliveries({ company_id: c.companyId, event_id: eventId }, { limit: 100 });
      for (const d of page.data) {
        const row = deliveryRow(c, d);
        if (matches(row, filter)) keep(row, row.ref, true);
      }
    }
    res.json({ data, gone } satisfies RowsAnswer);
  });

  r.get('/stats', async (req, res) => {
    const { minutes, ...filter } = parseQuery(statsQuery, req);
    res.json(computeStats(await ctx(), filter, minutes));
  });

  r.get('/deliveries/:id', async (req, res) => {
    res.json(await deliveryDetail(await ctx(), idParam(req)));
  });

  r.get('/captures/:id', async (req, res) => {
    res.json(captureDetail(await ctx(), idParam(req)));
  });

  // What a local delivery sent beside what the inbox received (same webhook-id).
  r.get('/captures/:id/pair', async (req, res) => {
    res.json(await capturePair(await ctx(), idParam(req)));
  });

  return r;
}
