// The console's live stream and a console that stops reading it (a frozen tab, a
// stalled link): what the service keeps for that console is bounded. Over real HTTP on
// loopback with a raw socket that sends its request and then never reads: the kernel's
// buffers fill first, then the service's, and past MAX_UNREAD_BYTES the service ends the
// stream and lets go of its listener. A console that reads keeps its stream meanwhile.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';
import { MAX_UNREAD_BYTES } from '../../src-main/backend/console-api/stream.js';

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(async () => {
  await t?.destroy();
});

const listeners = () => (t.backend.bus as any).emitter.listenerCount('change') as number;

/** Opens the stream on a raw socket; `read: false` pauses it for good once the answer's head is in. */
function openStream(read: boolean): Promise<{ socket: Socket; tail: () => string; closed: () => boolean }> {
  const { port } = new URL(t.urls.api_url);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  socket.write(
    `GET /console/api/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Console-Token: ${t.backend.consoleToken}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  return new Promise((resolve) => {
    let ready = false;
    const onData = (chunk: Buffer) => {
      text = (text + chunk.toString('latin1')).slice(-4096);
      if (ready || !text.includes('event: ready')) return;
      ready = true;
      if (!read) {
        socket.off('data', onData);
        socket.pause();
      }
      resolve({ socket, tail: () => text, closed: () => closed });
    };
    socket.on('data', onData);
  });
}

describe('live stream, a console that stops reading', () => {
  it('is let go past the bound, while a console that reads keeps its stream', async () => {
    const before = listeners();
    const stalled = await openStream(false);
    const reading = await openStream(true);
    expect(listeners()).toBe(before + 2);
    let emitted = 0;
    let emittedBytes = 0;
    let lastId = '';
    // Changes in batches, the event loop turning between them so that each batch is written.
    await waitUntil(
      'the stalled stream to be let go',
      async () => {
        for (let i = 0; i < 2000; i++) {
          lastId = `cap_unread_${emitted++}_${'x'.repeat(60)}`;
          emittedBytes += lastId.length + 50; // at least: the event's other fields add more
          t.backend.bus.emit({ kind: 'capture', inbox_id: 'inb_unread', id: lastId });
        }
        await new Promise((r) => setTimeout(r, 10));
        return listeners() === before + 1;
      },
      20_000,
      0,
    );
    // It was let go because it stopped reading, not at once: far more than the bound was sent its way.
    expect(emittedBytes).toBeGreaterThan(MAX_UNREAD_BYTES);
    // The console that reads got every change so far and is still connected.
    await waitUntil('the reading console to have every change', async () => reading.tail().includes(`"${lastId}"`));
    expect(reading.closed()).toBe(false);
    // The stalled console sees its connection end once it reads again (and would reconnect).
    stalled.socket.resume();
    await waitUntil('the stalled socket to close', async () => stalled.closed());
    reading.socket.destroy();
    await waitUntil('the reading stream to be let go', async () => listeners() === before);
  });
});
