// HistoryLog.recordAttempted (the delivery engine's per-attempt call): it records what
// recordAttempt then recordDelivery record, in one append, the change of the summary on
// the attempt's own line when a patch can say it (fewer bytes, the same state read back,
// before and after a reopen); an unknown delivery or a mismatched id falls back to the
// two calls; at a segment's end an attempt never refers to an event body in another
// segment file.
import { afterEach, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { AttemptRecord, DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, tempDir } from './history-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
const logs: HistoryLog[] = [];

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => {});
  for (const c of cleanups.splice(0)) await c();
});

async function setup(segmentBytes?: number) {
  const t = await tempDir();
  cleanups.push(t.cleanup);
  const make = async () => {
    const log = createHistoryLog({ dir: t.dir, cap: 1000, segmentBytes });
    logs.push(log);
    await log.open();
    return log;
  };
  return { dir: t.dir, make };
}

async function segments(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
  return Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
}

const BODY = JSON.stringify({ type: 'document.updated', data: { title: 'x'.repeat(700) } });

/** Three deliveries of one event, each with a failed attempt, a retry and a success (the last one with extra flags). */
function script(log: HistoryLog, both: (a: AttemptRecord, d: DeliverySummary) => void): void {
  log.recordEvent(event(), BODY);
  for (const id of ['msg_1', 'msg_2', 'msg_3']) {
    log.recordDelivery(delivery({ id }));
    const req = { method: 'POST' as const, url: 'http://127.0.0.1:9/hook', headers: { 'webhook-id': id }, body: BODY };
    const failed = attempt({
      delivery_id: id,
      request: req,
      response: null,
      error: 'connect ECONNREFUSED',
      succeeded: false,
      next_attempt_at: 1735689605000,
      rule: 'backoff',
      rule_detail: 'retry in 5 s',
    });
    both(
      failed,
      delivery({
        id,
        attempts: 1,
        last_attempt_at: '2025-01-01T00:00:01.000Z',
        last_error: 'connect ECONNREFUSED',
        last_duration_ms: 12,
        next_attempt_at: 1735689605000,
      }),
    );
    const ok = attempt({ delivery_id: id, attempt: 2, started_at: '2025-01-01T00:00:05.000Z', request: req });
    const done = delivery({
      id,
      status: 'succeeded',
      attempts: 2,
      last_attempt_at: '2025-01-01T00:00:05.000Z',
      last_status_code: 200,
      last_duration_ms: 12,
    });
    if (id === 'msg_3') {
      ok.tunnel_offline = true;
      done.last_tunnel_offline = true;
    }
    both(ok, done);
    both(attempt({ delivery_id: id, attempt: 3, request: req }), { ...done }); // a summary that did not change
  }
}

describe('history log: recordAttempted', () => {
  it('records what recordAttempt then recordDelivery record, the change on the attempt line, and reads back the same', async () => {
    const one = await setup();
    const two = await setup();
    const a = await one.make();
    const b = await two.make();
    script(a, (x, d) => {
      a.recordAttempt(x);
      a.recordDelivery(d);
    });
    script(b, (x, d) => b.recordAttempted(x, d));
    await a.flush();
    await b.flush();
    const files = await segments(two.dir);
    const separate = await segments(one.dir);
    // The same lines but for the patches, which ride on their attempts' lines.
    const lines = (f: string[]) => f.join('').split('\n').filter(Boolean);
    expect(lines(separate).filter((l) => l.startsWith('{"t":"u"'))).toHaveLength(6);
    expect(lines(files).filter((l) => l.startsWith('{"t":"u"'))).toEqual([]);
    expect(lines(files)).toHaveLength(lines(separate).length - 6);
    expect(files.join('').length).toBeLessThan(separate.join('').length - 6 * 60);
    // The attempts' bodies are references to the event line, not copies (the event's own may be deflated).
    expect(files.join('').split(JSON.stringify(BODY).slice(1, -1)).length).toBeLessThanOrEqual(2);
    for (const id of ['msg_1', 'msg_2', 'msg_3']) {
      expect(b.getDelivery(id)).toEqual(a.getDelivery(id));
      const attempts = await b.getAttempts(id);
      expect(attempts).toEqual(await a.getAttempts(id));
      expect(attempts.map((x) => x.request.body)).toEqual([BODY, BODY, BODY]);
    }
    await b.close();
    const reopened = await two.make();
    for (const id of ['msg_1', 'msg_2', 'msg_3']) {
      expect(JSON.stringify(reopened.getDelivery(id))).toBe(JSON.stringify(a.getDelivery(id))); // same keys in the same order
      expect(await reopened.getAttempts(id)).toEqual(await a.getAttempts(id));
    }
  });

  it('an unknown delivery: the attempt waits for its summary, as with recordAttempt', async () => {
    const { make } = await setup();
    const log = await make();
    const x = attempt({ delivery_id: 'msg_9' });
    log.recordAttempted(x, delivery({ id: 'msg_9', attempts: 1, last_attempt_at: x.started_at }));
    expect(log.getDelivery('msg_9')?.attempts).toBe(1);
    expect(await log.getAttempts('msg_9')).toEqual([x]);
    // An attempt of another delivery than the summary's goes with its own delivery.
    log.recordDelivery(delivery({ id: 'msg_8' }));
    const other = attempt({ delivery_id: 'msg_8' });
    log.recordAttempted(other, delivery({ id: 'msg_9', attempts: 2, last_attempt_at: x.started_at }));
    expect(await log.getAttempts('msg_8')).toEqual([other]);
    expect(await log.getAttempts('msg_9')).toEqual([x]);
    expect(log.getDelivery('msg_9')?.attempts).toBe(2);
  });

  it('at the end of a segment, the attempt holds its body itself when it (with a change of its own line) moves to the next file', async () => {
    const full = attempt({ request: { method: 'POST', url: 'http://127.0.0.1:9/hook', headers: { 'webhook-id': 'msg_1' }, body: BODY } });
    const done = delivery({
      status: 'succeeded',
      attempts: 1,
      last_attempt_at: full.started_at,
      last_status_code: 200,
      last_duration_ms: 12,
    });
    // A change a patch cannot say (a field went away) is a whole summary on a line of its own after the attempt.
    const { last_error: _gone, ...lessDone } = done;
    for (const [after, room] of [
      [done, -1], // the attempt's line, its change on it, does not fit by a byte
      [lessDone as DeliverySummary, 5], // the attempt's line would fit, not with the summary's line after it
    ] as const) {
      // Sized from a probe: how long the attempt line is.
      const probe = await setup();
      const p = await probe.make();
      p.recordEvent(event(), BODY);
      p.recordDelivery(delivery());
      await p.flush();
      const before = (await segments(probe.dir))[0].length;
      p.recordAttempted(full, after);
      await p.flush();
      const attemptBytes = Buffer.byteLength((await segments(probe.dir))[0].slice(before).split('\n')[0]) + 1;
      const { dir, make } = await setup(before + attemptBytes + room);
      const log = await make();
      log.recordEvent(event(), BODY);
      log.recordDelivery(delivery());
      log.recordAttempted(full, after);
      await log.close();
      const files = await segments(dir);
      expect(files).toHaveLength(2);
      expect(files[1]).toContain('"t":"a"');
      expect(files[1]).toContain(JSON.stringify(BODY).slice(1, 40));
      const reopened = await make();
      expect(await reopened.getAttempts('msg_1')).toEqual([full]);
      expect(JSON.stringify(reopened.getDelivery('msg_1'))).toBe(JSON.stringify(after));
    }
  });
});
