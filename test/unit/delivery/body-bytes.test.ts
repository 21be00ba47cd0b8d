// The engine encodes each event body once and shares the bytes between its attempts.
import { describe, expect, it } from 'vitest';
import { BodyBytes } from '../../../src-main/backend/delivery/body-bytes.js';

describe('BodyBytes', () => {
  it('encodes a body once per event, as UTF-8, and never hands out stale bytes', () => {
    const cache = new BodyBytes();
    const text = '{"title":"Zoë’s lease ✓ 😀"}';
    const a = cache.get('evt_1', text);
    expect(a.toString('utf8')).toBe(text);
    expect(a.length).toBe(Buffer.byteLength(text));
    expect(cache.get('evt_1', text)).toBe(a); // shared, not re-encoded
    const other = cache.get('evt_1', '{"changed":true}'); // same id, other text: its own bytes
    expect(other.toString()).toBe('{"changed":true}');
    expect(cache.get('evt_2', text)).not.toBe(a);
  });

  it('stays bounded and still answers correctly after evicting', () => {
    const cache = new BodyBytes();
    for (let i = 0; i < 1000; i++) expect(cache.get(`evt_${i}`, `{"i":${i}}`).toString()).toBe(`{"i":${i}}`);
    expect((cache as unknown as { cache: Map<string, unknown> }).cache.size).toBeLessThanOrEqual(64);
    expect(cache.get('evt_3', '{"i":3}').toString()).toBe('{"i":3}');
  });
});
