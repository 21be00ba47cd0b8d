// The event-stream parser, fed the way a network delivers: in arbitrary pieces.
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../src-renderer/api/sse.js';

function parseAll(chunks: string[]) {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  let activity = 0;
  const p = createSseParser({ onMessage: (m) => messages.push(m), onRetry: (ms) => retries.push(ms), onActivity: () => activity++ });
  for (const c of chunks) p.push(c);
  return { messages, retries, activity };
}

describe('SSE parser', () => {
  it('reads events, data, ids and the retry hint; skips comments', () => {
    const { messages, retries } = parseAll([
      'retry: 2000\n: connected\n\nevent: ready\ndata: {}\n\nid: 7\nevent: change\ndata: {"kind":"document"}\n\n',
    ]);
    expect(retries).toEqual([2000]);
    expect(messages).toEqual([
      { event: 'ready', data: '{}' },
      { event: 'change', data: '{"kind":"document"}', id: '7' },
    ]);
  });

  it('joins multi-line data and defaults the event name to "message"', () => {
    const { messages } = parseAll(['data: a\ndata:b\n\n']);
    expect(messages).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('gives the same result however the bytes are split, CRLF and CR included', () => {
    const text = 'event: change\r\ndata: {"x":1}\r\n\r\nevent: change\rdata: {"x":2}\r\r: heartbeat\n\n';
    const whole = parseAll([text]).messages;
    expect(whole.map((m) => m.data)).toEqual(['{"x":1}', '{"x":2}']);
    for (let size = 1; size < 9; size++) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      expect(parseAll(pieces).messages).toEqual(whole);
    }
  });

  it('ignores a bad retry value, and an event with no data, while counting heartbeats as activity', () => {
    const { messages, retries, activity } = parseAll(['retry: soon\n\nevent: empty\n\n: heartbeat\n\n']);
    expect(retries).toEqual([]);
    expect(messages).toEqual([]);
    expect(activity).toBeGreaterThan(3);
  });
});
