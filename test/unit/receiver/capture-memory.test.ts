// What a kept capture holds in memory: its body in a buffer of its own, of exactly its
// size, whether it came over HTTP (a small body was a view into Node's shared 8 KiB
// pool, a big one into the socket's read), from the inbox's file at start (base64
// decoded into the pool) or from an import. A view keeps its whole slab alive for as
// long as the inbox keeps the capture, which the retention limits (counting body bytes)
// do not see: 1,000 captures of 700 bytes held ~8 MB instead of ~0.7 MB.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { joinOwned, owned, ownsItsMemory } from '../../../src-main/backend/receiver/own-bytes.js';
import { send, startReceiver } from './harness.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-capture-memory-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const body = (n: number, size: number) => JSON.stringify({ type: 'document.sent', n, pad: 'x'.repeat(size) });

describe('a kept capture body', () => {
  it('owns exactly its bytes when it arrives over HTTP, small or big, and after a restart', async () => {
    const h = await startReceiver({ dir });
    const id = (await h.receiver.inboxes.create({ name: 'memory' })).id;
    const sizes = [0, 40, 700, 3000, 5000, 70_000];
    for (const [i, size] of sizes.entries()) {
      const text = size === 0 ? '' : body(i, size);
      const sent = await send(h, `/in/${id}`, text);
      expect(sent.status).toBe(200);
      const c = sent.capture!;
      expect(c.body.toString('utf8')).toBe(text);
      expect(c.body.buffer.byteLength).toBe(c.body.length);
      expect(ownsItsMemory(c.body)).toBe(true);
    }
    await h.stop(false);

    const h2 = await startReceiver({ dir });
    const loaded = h2.receiver.captures.list(id);
    expect(loaded).toHaveLength(sizes.length);
    for (const c of loaded) {
      expect(c.body.buffer.byteLength).toBe(c.body.length);
      expect(ownsItsMemory(c.body)).toBe(true);
    }
    expect(loaded.map((c) => c.body.length)).toEqual(sizes.map((s, i) => (s === 0 ? 0 : Buffer.byteLength(body(i, s)))));
    await h2.stop();
  });
});

describe('own-bytes', () => {
  it('joins chunks into one buffer of their exact size, outside the shared pool', () => {
    const a = Buffer.from('hello, '); // pooled: a view into an 8 KiB slab
    const b = Buffer.from('world');
    expect(ownsItsMemory(a)).toBe(false);
    const j = joinOwned([a, b]);
    expect(j.toString()).toBe('hello, world');
    expect(j.buffer.byteLength).toBe(12);
    expect(joinOwned([]).length).toBe(0);
  });

  it('keeps a buffer that already owns its memory as it is, and copies a view', () => {
    const whole = Buffer.allocUnsafeSlow(10).fill(7);
    expect(owned(whole)).toBe(whole);
    const view = whole.subarray(2, 5);
    const copy = owned(view);
    expect(copy).not.toBe(view);
    expect([...copy]).toEqual([7, 7, 7]);
    expect(copy.buffer.byteLength).toBe(3);
  });
});
