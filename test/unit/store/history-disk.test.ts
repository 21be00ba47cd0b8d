// The history log's compact lines against a real temp folder: what the inspector reads
// back (attempts with their request body, headers and response; summaries; event bodies)
// is exactly what was recorded, after a reopen, across segments, retention and a
// rollback; a data folder written by the previous line format still opens and reads back
// exactly; and a delivery costs at most 1.5 KB of disk.
import { describe, expect, it } from 'vitest';
import { cp, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AttemptRecord, DeliverySummary, EventSummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, historyLogs } from './history-fixtures.js';
import { newId } from '../../../src-main/backend/ids.js';
import { eventLine } from '../../../src-main/backend/store/history/records.js';
import fc from 'fast-check';

const setup = historyLogs({ cap: 1000 });

async function folderBytes(dir: string): Promise<number> {
  let n = 0;
  for (const f of await readdir(dir)) n += (await stat(join(dir, f))).size;
  return n;
}

const allText = async (dir: string) => (await Promise.all((await readdir(dir)).sort().map((f) => readFile(join(dir, f), 'utf8')))).join('');

/** Same JSON text and the same own keys in the same order. */
function expectExact(back: unknown, original: unknown): void {
  expect(JSON.stringify(back)).toBe(JSON.stringify(original));
  expect(back).toStrictEqual(JSON.parse(JSON.stringify(original)));
}

const body730 = (id: string) =>
  JSON.stringify({
    id,
    type: 'document.updated',
    data: { document: { public_id: 'doc_1', title: `Deal "${id}" é 😀`, recipients: [1, 2, 3].map(() => ({ public_id: newId('rcp') })) } },
  }).padEnd(730, ' ');

const withBody = (id: string, body: string, over: Partial<AttemptRecord> = {}) =>
  attempt({ delivery_id: id, request: { ...attempt().request, headers: { 'webhook-id': id }, body }, ...over });

describe('history log: compact lines read back exactly', () => {
  it('an attempt whose body is its event body refers to it; any other body is kept whole', async () => {
    const { dir, make } = await setup();
    const log = await make();
    const body = body730('evt_1');
    log.recordEvent(event({ id: 'evt_1' }), body);
    log.recordDelivery(delivery({ id: 'msg_1', event_id: 'evt_1' }));
    const sent = [
      withBody('msg_1', body, { succeeded: false, response: null, error: 'timeout', next_attempt_at: 9 }),
      withBody('msg_1', body.replace('Deal', 'Faulty'), { attempt: 2 }), // a fault changed the body
      withBody('msg_1', body, { attempt: 3 }),
    ];
    for (const a of sent) log.recordAttempt(a);
    log.recordDelivery(delivery({ id: 'msg_1', event_id: 'evt_1', status: 'succeeded', attempts: 3 }));
    await log.flush();
    const text = await allText(dir);
    expect(text.split('Faulty').length).toBe(2); // the changed body once, the event's never in full (deflated)
    expect(text).not.toContain('Deal');
    expectExact(await log.getAttempts('msg_1'), sent);
    await log.close();
    const again = await make();
    expectExact(await again.getAttempts('msg_1'), sent);
    expect(await again.getEventBody('evt_1')).toBe(body);
    expectExact(again.getDelivery('msg_1'), delivery({ id: 'msg_1', event_id: 'evt_1', status: 'succeeded', attempts: 3 }));
  });

  it('still refers to its event body behind a backlog of thousands of later events, never to another body of the same length', async () => {
    const { dir, make } = await setup({ cap: 5000 });
    const log = await make();
    const body = body730('evt_0');
    log.recordEvent(event({ id: 'evt_0' }), body);
    // Far more than the window of recent bodies: evt_0 is known by its line and hash only.
    for (let i = 1; i <= 3000; i++) log.recordEvent(event({ id: `evt_${i}` }), body730(`evt_${i}`));
    log.recordDelivery(delivery({ id: 'msg_0', event_id: 'evt_0' }));
    const sent = [withBody('msg_0', body), withBody('msg_0', body.replace('Deal', 'Mule'), { attempt: 2 })];
    for (const a of sent) log.recordAttempt(a);
    await log.flush();
    const text = await allText(dir);
    expect(text).not.toContain('Deal'); // the first attempt points to the (deflated) event line
    expect(text.split('Mule').length).toBe(2); // the same-length other body is held whole
    expectExact(await log.getAttempts('msg_0'), sent);
    await log.close();
    expectExact(await (await make()).getAttempts('msg_0'), sent);
  });

  it('never refers across segments: the event line is copied into the segment of the attempt first, or the attempt holds its body', async () => {
    const { dir, make } = await setup({ segmentBytes: 1000 });
    const log = await make();
    const body = body730('evt_1');
    log.recordEvent(event({ id: 'evt_1' }), body);
    log.recordDelivery(delivery({ id: 'msg_1', event_id: 'evt_1' }));
    const sent = [1, 2, 3, 4, 5, 6].map((n) => withBody('msg_1', body, { attempt: n }));
    for (const a of sent) log.recordAttempt(a);
    await log.close();
    const names = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
    expect(names.length).toBeGreaterThan(2);
    // Every reference points to an event line of evt_1 in its own file.
    let refs = 0;
    for (const f of names) {
      const file = await readFile(join(dir, f));
      for (const line of file
        .toString('utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"t":"a"'))) {
        const ref = (JSON.parse(line) as { x: unknown[] }).x[6];
        if (!Array.isArray(ref)) continue;
        refs++;
        const [off, len] = ref as [number, number];
        expect(file.toString('utf8', off, off + len)).toMatch(/^\{"t":"e","s":1,.*"evt_1"/);
      }
    }
    expect(refs).toBe(5); // all but the one that did not fit beside the event line (and started a new file)
    // Each copy is the event's line to the byte (its deflated body taken from the last line, not made again).
    const texts = await Promise.all(names.map((f) => readFile(join(dir, f), 'utf8')));
    const eventLines = texts.flatMap((t) => t.split('\n')).filter((l) => l.startsWith('{"t":"e"'));
    expect(eventLines.length).toBeGreaterThan(1);
    expect(new Set(eventLines)).toEqual(new Set([eventLine(1, event({ id: 'evt_1' }), body).trimEnd()]));
    expect(await allText(dir)).toContain('Deal'); // the attempt that did not fit beside a copy holds its body whole
    expectExact(await (await make()).getAttempts('msg_1'), sent);
  });

  it('an attempt behind a backlog that crossed segments points to a copy of its event line; retention of the older files keeps it exact', async () => {
    const { dir, make } = await setup({ cap: 6, segmentDeliveries: 2 });
    const log = await make();
    const other = (i: number) => {
      log.recordEvent(event({ id: `evt_${i}` }), `{"n":${i}}`);
      log.recordDelivery(delivery({ id: `msg_${i}`, event_id: `evt_${i}`, status: 'succeeded' }));
    };
    const body = body730('evt_b');
    log.recordEvent(event({ id: 'evt_b' }), body); // segment 1
    other(0);
    other(1);
    log.recordDelivery(delivery({ id: 'msg_b', event_id: 'evt_b' })); // segment 2
    other(2);
    other(3); // segment 3
    const sent = withBody('msg_b', body, { next_attempt_at: null });
    const done = delivery({ id: 'msg_b', event_id: 'evt_b', status: 'succeeded', attempts: 1 });
    log.recordAttempted(sent, done);
    other(4);
    other(5); // segment 4: 8 deliveries, over the cap: segment 1 goes
    await log.flush();
    expectExact(await log.getAttempts('msg_b'), [sent]);
    await log.close();
    expect(await readdir(dir)).not.toContain('seg-000001.jsonl');
    expect(await allText(dir)).not.toContain('Deal'); // never held whole: the attempt points to the event line's copy
    const again = await make();
    expectExact(await again.getAttempts('msg_b'), [sent]);
    expect(await again.getEventBody('evt_b')).toBe(body);
    expectExact(again.getDelivery('msg_b'), done);
  });

  it('retention carries a pending delivery with its bodies whole, and a reopen reads it exactly', async () => {
    const { dir, make } = await setup({ cap: 2, segmentDeliveries: 1 });
    const log = await make();
    const body = body730('evt_p');
    log.recordEvent(event({ id: 'evt_p' }), body);
    log.recordDelivery(delivery({ id: 'msg_p', event_id: 'evt_p' }));
    const sent = [withBody('msg_p', body, { succeeded: false, next_attempt_at: 5 })];
    log.recordAttempt(sent[0]);
    for (let i = 0; i < 3; i++) {
      log.recordEvent(event({ id: `evt_${i}` }), `{"n":${i}}`);
      log.recordDelivery(delivery({ id: `msg_${i}`, event_id: `evt_${i}`, status: 'succeeded' }));
    }
    await waitFor(async () => !(await readdir(dir)).includes('seg-000001.jsonl'));
    sent.push(withBody('msg_p', body, { attempt: 2 }));
    log.recordAttempt(sent[1]);
    expectExact(await log.getAttempts('msg_p'), sent);
    await log.close();
    const again = await make();
    expectExact(await again.getAttempts('msg_p'), sent);
    expect(await again.getEventBody('evt_p')).toBe(body);
  });

  it('after a rollback, no attempt refers to an event line that was cut off', async () => {
    const { make } = await setup();
    const log = await make();
    log.recordEvent(event({ id: 'evt_keep' }), '{"keep":1}');
    await log.flush();
    const mark = log.mark();
    const body = body730('evt_x');
    log.recordEvent(event({ id: 'evt_x' }), body);
    await log.flush();
    await log.rollback(mark);
    log.recordEvent(event({ id: 'evt_other' }), body730('evt_other'));
    log.recordDelivery(delivery({ id: 'msg_x', event_id: 'evt_x' }));
    const sent = withBody('msg_x', body);
    log.recordAttempt(sent);
    expectExact(await log.getAttempts('msg_x'), [sent]);
    await log.close();
    expectExact(await (await make()).getAttempts('msg_x'), [sent]);
  });

  it('a change writes only what changed; a field that goes away writes the whole summary; no change writes nothing', async () => {
    const { dir, make } = await setup();
    const log = await make();
    const d0 = delivery({ id: 'msg_1', next_attempt_at: 7 });
    log.recordDelivery(d0);
    await log.flush();
    const size0 = await folderBytes(dir);
    const d1: DeliverySummary = { ...d0, status: 'failed', attempts: 1, last_error: 'x', next_attempt_at: null, last_tunnel_offline: true };
    log.recordDelivery(d1);
    await log.flush();
    const size1 = await folderBytes(dir);
    expect(size1 - size0).toBeLessThan(110);
    log.recordDelivery({ ...d1 });
    await log.flush();
    expect(await folderBytes(dir)).toBe(size1);
    const d2 = { ...d1, status: 'pending' } as Partial<DeliverySummary>;
    delete d2.last_tunnel_offline;
    log.recordDelivery(d2 as DeliverySummary);
    expectExact(log.getDelivery('msg_1'), d2);
    await log.close();
    expectExact((await make()).getDelivery('msg_1'), d2);
  });
});

async function waitFor(ok: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Expected {
  deliveries: { summary: DeliverySummary; attempts: AttemptRecord[] }[];
  events: { summary: EventSummary; body: string }[];
}

describe('history log: a folder written by the previous line format', () => {
  const fixtures = join(import.meta.dirname, 'fixtures');

  it('opens and reads back exactly, also with new lines appended and after retention carries an old delivery', async () => {
    const { dir, make } = await setup({ cap: 6, segmentDeliveries: 1 });
    await cp(join(fixtures, 'history-v1'), dir, { recursive: true });
    const expected = JSON.parse(await readFile(join(fixtures, 'history-v1.expected.json'), 'utf8')) as Expected;
    const check = async (log: HistoryLog) => {
      for (const d of expected.deliveries) {
        expectExact(log.getDelivery(d.summary.id), d.summary);
        expectExact(await log.getAttempts(d.summary.id), d.attempts);
      }
      for (const e of expected.events) {
        expectExact(log.getEvent(e.summary.id), e.summary);
        expect(await log.getEventBody(e.summary.id)).toBe(e.body);
      }
    };
    const log = await make();
    expect(expected.deliveries.map((d) => d.attempts.length)).toEqual([2, 2, 1, 1, 1, 1]);
    await check(log);
    // New lines after old ones: an attempt and a change to the old pending delivery.
    const pending = expected.deliveries[0];
    const body = expected.events[0].body;
    const third = withBody(pending.summary.id, body, { attempt: 3 });
    log.recordAttempt(third);
    pending.attempts.push(third);
    pending.summary = { ...pending.summary, attempts: 3, last_status_code: 200 };
    log.recordDelivery(pending.summary);
    await check(log);
    await log.close();
    await check(await make());
  });
});

describe('history log: disk per delivery', () => {
  it('is at most 1.5 KB for a 730-byte body and one successful attempt, each its own event', async () => {
    const { dir, make } = await setup();
    const log = await make();
    const n = 500;
    const sent: AttemptRecord[] = [];
    for (let i = 0; i < n; i++) {
      const eventId = newId('evt');
      const id = newId('msg');
      const body = body730(eventId);
      expect(body.length).toBe(730);
      log.recordEvent(event({ id: eventId, document_id: 'doc_1', timestamp: new Date(1.8e12 + i).toISOString() }), body);
      const d = delivery({
        id,
        event_id: eventId,
        subscription_id: 'wh_1',
        url: 'http://127.0.0.1:4011/hook',
        next_attempt_at: 1.8e12 + i,
      });
      log.recordDelivery(d);
      const a = attempt({
        delivery_id: id,
        started_at: new Date(1.8e12 + i).toISOString(),
        request: {
          method: 'POST',
          url: d.url,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Countersign-Webhooks/0.1',
            'webhook-id': id,
            'webhook-timestamp': String(1.8e9 + i),
            'webhook-signature':
              'v1,' +
              Buffer.from(newId('s') + newId('s'))
                .toString('base64')
                .slice(0, 44),
          },
          body,
        },
        response: {
          status: 200,
          headers: { date: new Date(1.8e12).toUTCString(), connection: 'keep-alive', 'content-length': '2' },
          body: 'ok',
          truncated: false,
        },
      });
      log.recordAttempt(a);
      sent.push(a);
      log.recordDelivery({
        ...d,
        status: 'succeeded',
        attempts: 1,
        last_attempt_at: a.started_at,
        last_status_code: 200,
        last_duration_ms: 12,
        next_attempt_at: null,
      });
    }
    await log.close();
    const perDelivery = (await folderBytes(dir)) / n;
    expect(perDelivery).toBeLessThanOrEqual(1536);
    const again = await make();
    for (const a of sent.slice(-20)) expectExact(await again.getAttempts(a.delivery_id), [a]);
  });
});

describe('history log: generated histories read back exactly (property)', () => {
  type Op =
    | { k: 'event'; e: number; body: string }
    | { k: 'delivery'; d: number; e: number }
    | { k: 'attempt'; d: number; sameBody: boolean; other: string }
    | { k: 'update'; d: number; status: DeliverySummary['status']; offline: boolean };

  const text = fc.string({ unit: 'binary', maxLength: 120 });
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      k: fc.constant('event' as const),
      e: fc.nat(5),
      body: fc.oneof(
        text,
        text.map((s) => s.repeat(8)),
      ),
    }),
    fc.record({ k: fc.constant('delivery' as const), d: fc.nat(7), e: fc.nat(5) }),
    fc.record({ k: fc.constant('attempt' as const), d: fc.nat(7), sameBody: fc.boolean(), other: text }),
    fc.record({
      k: fc.constant('update' as const),
      d: fc.nat(7),
      status: fc.constantFrom('pending', 'succeeded', 'failed') as fc.Arbitrary<DeliverySummary['status']>,
      offline: fc.boolean(),
    }),
  );

  it('across segments, re-recorded events, patches and a reopen', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
        const { make } = await setup({ segmentBytes: 700, segmentDeliveries: 3 });
        const log = await make();
        const bodies = new Map<string, string>();
        const summaries = new Map<string, DeliverySummary>();
        const attempts = new Map<string, AttemptRecord[]>();
        for (const o of ops) {
          if (o.k === 'event') {
            bodies.set(`evt_${o.e}`, o.body);
            log.recordEvent(event({ id: `evt_${o.e}` }), o.body);
          } else if (o.k === 'delivery') {
            const id = `msg_${o.d}`;
            if (summaries.has(id) || !bodies.has(`evt_${o.e}`)) continue;
            const d = delivery({ id, event_id: `evt_${o.e}` });
            summaries.set(id, d);
            attempts.set(id, []);
            log.recordDelivery(d);
          } else if (o.k === 'attempt') {
            const id = `msg_${o.d}`;
            const d = summaries.get(id);
            if (!d) continue;
            const list = attempts.get(id)!;
            const a = withBody(id, o.sameBody ? bodies.get(d.event_id)! : o.other, { attempt: list.length + 1 });
            list.push(a);
            log.recordAttempt(a);
          } else {
            const id = `msg_${o.d}`;
            const d = summaries.get(id);
            if (!d) continue;
            const next = { ...d, status: o.status, attempts: d.attempts + 1 } as Partial<DeliverySummary>;
            if (o.offline) next.last_tunnel_offline = true;
            else delete next.last_tunnel_offline;
            summaries.set(id, next as DeliverySummary);
            log.recordDelivery(next as DeliverySummary);
          }
        }
        const check = async (l: HistoryLog) => {
          for (const [id, d] of summaries) {
            expectExact(l.getDelivery(id), d);
            expectExact(await l.getAttempts(id), attempts.get(id));
          }
          for (const [id, body] of bodies) expect(await l.getEventBody(id)).toBe(body);
        };
        await check(log);
        await log.close();
        await check(await make());
      }),
      { seed: 26, numRuns: 25 },
    );
  });
});
