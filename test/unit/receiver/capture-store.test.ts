// Capture storage against a real temp folder: retention by count and by bytes, the
// file surviving a restart, a torn last line skipped, compaction keeping the file bounded.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureStore } from '../../../src-main/backend/receiver/capture-store.js';
import { DEFAULT_LIMITS, type Capture, type ReceiverLimits } from '../../../src-main/backend/receiver/types.js';
import { send, startReceiver } from './harness.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-captures-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const INBOX = 'inb_test1';
let n = 0;
function capture(bytes = 10, inbox = INBOX): Capture {
  n++;
  return {
    id: `cap_${n}`,
    inbox_id: inbox,
    received_at: new Date().toISOString(),
    method: 'POST',
    path: `/in/${inbox}`,
    headers: [['Content-Type', 'application/json']],
    body: Buffer.alloc(bytes, 0xfe),
    size: bytes,
    body_truncated: false,
    remote_address: '127.0.0.1',
    webhook_id: `msg_${n}`,
    event_type: null,
    attempt_for_id: 1,
    duplicate: false,
    verdict: null,
    response: { status: 200, headers: {}, body: '', delay_ms: 0, hang: false },
  };
}
const limits = (l: Partial<ReceiverLimits>): ReceiverLimits => ({ ...DEFAULT_LIMITS, ...l });

describe('capture store', () => {
  it('keeps the newest N per inbox and forgets older ones by id', () => {
    const s = new CaptureStore(dir, limits({ maxCapturesPerInbox: 3 }));
    const made = Array.from({ length: 5 }, () => capture());
    for (const c of made) s.add(c);
    expect(s.list(INBOX).map((c) => c.id)).toEqual(made.slice(2).map((c) => c.id));
    expect(s.get(made[0].id)).toBeUndefined();
    expect(s.get(made[4].id)).toBeDefined();
    return s.flush();
  });

  it('keeps at most maxBytes of bodies per inbox (but always the newest one)', () => {
    const s = new CaptureStore(dir, limits({ maxBytesPerInbox: 250 }));
    for (let i = 0; i < 5; i++) s.add(capture(100));
    expect(s.list(INBOX)).toHaveLength(2);
    s.add(capture(1000));
    expect(s.list(INBOX)).toHaveLength(1);
    return s.flush();
  });

  it('survives a restart, byte-exact, and skips a torn last line', async () => {
    const s = new CaptureStore(dir, DEFAULT_LIMITS);
    const a = capture(3);
    a.body = Buffer.from([0, 255, 10]);
    s.add(a);
    s.add(capture());
    await s.flush();
    await appendFile(join(dir, `${INBOX}.jsonl`), '{"id":"cap_torn","inbox_id":"inb_te');
    const again = new CaptureStore(dir, DEFAULT_LIMITS);
    const loaded = again.loadInbox(INBOX);
    expect(loaded).toHaveLength(2);
    expect(again.get(a.id)!.body.equals(Buffer.from([0, 255, 10]))).toBe(true);
  });

  it('compacts the file so it never holds much more than the retention', async () => {
    const s = new CaptureStore(dir, limits({ maxCapturesPerInbox: 10 }));
    for (let i = 0; i < 95; i++) s.add(capture());
    await s.flush();
    const lines = (await readFile(join(dir, `${INBOX}.jsonl`), 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(21);
    const reloaded = new CaptureStore(dir, limits({ maxCapturesPerInbox: 10 })).loadInbox(INBOX);
    expect(reloaded.map((c) => c.id)).toEqual(s.list(INBOX).map((c) => c.id));
  });

  it('counts what waits for the disk, per inbox and in all, until it is written', async () => {
    const s = new CaptureStore(dir, DEFAULT_LIMITS);
    for (let i = 0; i < 5; i++) s.add(capture(1000));
    s.add(capture(1000, 'inb_other'));
    expect(s.queuedBytes(INBOX)).toBeGreaterThanOrEqual(5000);
    expect(s.queuedBytes()).toBe(s.queuedBytes(INBOX) + s.queuedBytes('inb_other'));
    await s.flush();
    expect(s.queuedBytes()).toBe(0);
    expect((await readFile(join(dir, `${INBOX}.jsonl`), 'utf8')).trim().split('\n')).toHaveLength(5);
  });

  it('never writes a capture that retention dropped before its turn (a flood does not queue what is not kept)', async () => {
    const s = new CaptureStore(dir, limits({ maxCapturesPerInbox: 3 }));
    const made = Array.from({ length: 10 }, () => capture(100));
    for (const c of made) s.add(c);
    expect(s.queuedBytes(INBOX)).toBeLessThan(4 * 1024);
    await s.flush();
    const ids = (await readFile(join(dir, `${INBOX}.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(ids).toEqual(made.slice(7).map((c) => c.id));
    expect(s.queuedBytes()).toBe(0);
  });

  it('refuses an inbox id that is not one (it names a file)', () => {
    const s = new CaptureStore(dir, DEFAULT_LIMITS);
    expect(() => s.add(capture(1, '../../etc/passwd'))).toThrow(/not an inbox id/);
  });
});

describe('captures through the receiver', () => {
  it('are kept out of the main store file, reload after a restart with duplicates still known, and go when the inbox goes', async () => {
    const h = await startReceiver({ dir });
    const id = (await h.receiver.inboxes.create({ name: 'persisted' })).id;
    await send(h, `/in/${id}`, '{"type":"document.sent"}', { 'webhook-id': 'msg_keep' });
    await h.stop(false);
    const data = await readFile(join(dir, 'data.json'), 'utf8');
    expect(data).toContain(id);
    expect(data).not.toContain('msg_keep');

    const h2 = await startReceiver({ dir });
    const [c] = h2.receiver.captures.list(id);
    expect(c).toMatchObject({ webhook_id: 'msg_keep', event_type: 'document.sent' });
    const again = await send(h2, `/in/${id}`, '{}', { 'webhook-id': 'msg_keep' });
    expect(again.capture!.duplicate).toBe(true);
    await h2.receiver.inboxes.remove(id);
    await h2.receiver.flush();
    expect(existsSync(join(dir, 'captures', `${id}.jsonl`))).toBe(false);
    expect((await stat(join(dir, 'data.json'))).size).toBeLessThan(10_000);
    await h2.stop(false);
  });
});
