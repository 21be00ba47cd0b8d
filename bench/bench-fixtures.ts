// What the in-process benches (attempt-log-bench.ts, fanout-bench.ts, queue-bench.ts)
// share: the document an event carries, an attempt as the engine ends it, and CPU time.
// Diagnostic tools only; `npm run bench` does not use them.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src-main/backend/store/store.js';
import { createHistoryLog } from '../src-main/backend/store/history-log.js';
import { Outbox, type OutboxWork } from '../src-main/backend/delivery/outbox.js';
import { systemClock } from '../src-main/backend/clock.js';
import type { SubscriptionRecord } from '../src-main/backend/store/schema.js';
import type { EndedAttempt } from '../src-main/backend/delivery/attempt-log.js';
import { webhookHeaders, type signingKey } from '../src-main/backend/delivery/signing.js';

/** CPU time of this process so far (all threads), in µs. */
export const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** A document.updated event's data, as the bench's PUTs make it. */
export function documentData(i: number): Record<string, unknown> {
  return {
    document: {
      public_id: 'doc_01JDXK3M4N5P6Q7R8S9T0VWXYZ',
      title: `Lease agreement, revision ${i}`,
      status: 'SENT',
      recipients: [
        {
          public_id: 'rcp_01JDXK3M4N5P6Q7R8S9T0ABCDE',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          role: 'signer',
          status: 'pending',
          completed_at: null,
        },
        {
          public_id: 'rcp_01JDXK3M4N5P6Q7R8S9T0FGHIJ',
          name: 'Alan Turing',
          email: 'alan@example.com',
          role: 'signer',
          status: 'viewed',
          completed_at: null,
        },
      ],
      metadata: { deal: 'D-1042', region: 'eu' },
      url: 'http://127.0.0.1:4010/app/documents?d=doc_01JDXK3M4N5P6Q7R8S9T0VWXYZ',
      created_at: '2026-11-26T10:00:00.000Z',
      updated_at: new Date().toISOString(),
    },
  };
}

/** An attempt as the engine ends it, answered as bench/receiver.mjs answers. */
export function endedAttempt(w: OutboxWork, store: Store, key: ReturnType<typeof signingKey>, url: string): EndedAttempt {
  const body = store.pendingEvents.get(w.row.event_id)!.body;
  const startedAt = Date.now();
  const headers = webhookHeaders({ secret: key, msgId: w.row.id, timestamp: Math.floor(startedAt / 1000), body: Buffer.from(body) });
  const date = new Date(startedAt).toUTCString();
  return {
    row: w.row,
    attempt: 1,
    url,
    startedAt,
    headers: { ...headers },
    body,
    result: {
      durationMs: 1.234,
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': '11', date, connection: 'keep-alive', 'keep-alive': 'timeout=5' },
        body: '{"ok":true}',
        truncated: false,
      },
      error: null,
    },
    succeeded: true,
    status: 'succeeded',
    nextAt: null,
    rule: 'success',
    detail: '200: delivered',
    slowDown: false,
  };
}

/** The company co_bench and `n` enabled subscriptions of type all to `${urlBase}/cs/<i>`, committed. */
export async function benchSubscriptions(store: Store, n: number, urlBase: string): Promise<SubscriptionRecord[]> {
  store.companies.insert({ id: 'co_bench', name: 'Bench', created_at: new Date().toISOString() } as never);
  const subs: SubscriptionRecord[] = [];
  for (let i = 0; i < n; i++)
    subs.push(
      store.subscriptions.insert({
        public_id: `wh_bench${String(i).padStart(20, '0')}`,
        company_id: 'co_bench',
        url: `${urlBase}/cs/${i}`,
        type: 'all',
        status: 'enabled',
        created_at: new Date().toISOString(),
        secret_key: 'whsec_' + Buffer.alloc(24, i).toString('base64'),
      } as unknown as SubscriptionRecord) as SubscriptionRecord,
    );
  await store.commit();
  return subs;
}

/**
 * A store with its history log (capped at `cap` deliveries) and an outbox, in a new folder
 * under the system's temporary one; `takeAdded()` gives what the outbox handed over since
 * the last call.
 */
export async function openBenchOutbox(prefix: string, cap: number) {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const store = new Store(root);
  await store.open();
  const history = createHistoryLog({ dir: join(root, 'history'), cap });
  await history.open();
  store.attachLog(history);
  const outbox = new Outbox({ store, history, clock: systemClock });
  let added: OutboxWork[] = [];
  outbox.listen({ added: (w) => added.push(...w), again: () => {}, cancelled: () => {} });
  const takeAdded = (): OutboxWork[] => {
    const taken = added;
    added = [];
    return taken;
  };
  return { root, store, history, outbox, takeAdded };
}
