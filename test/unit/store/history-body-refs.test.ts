// RecentBodies keeps, with each recent event's body, its line's body field (deflated or
// not, body-codec.ts): an event line written again in a new segment after a rotation
// takes it from there instead of deflating the body again, and only when the body is the
// very one that line holds.
import { describe, expect, it } from 'vitest';
import { RecentBodies } from '../../../src-main/backend/store/history/body-refs.js';
import { bodyField } from '../../../src-main/backend/store/history/body-codec.js';
import { newSegment } from '../../../src-main/backend/store/history/segments.js';

describe('recent event bodies', () => {
  const seg = newSegment('/nowhere', 1, true);
  const body = JSON.stringify({ id: 'evt_1', data: { title: 'Lease '.repeat(60) } });

  it('give an event line`s body field back for the same body, and make it for any other', () => {
    const bodies = new RecentBodies(() => undefined);
    bodies.remember('evt_1', body, { seg, off: 0, len: 10 }, '<the field written>');
    expect(bodies.field('evt_1', body)).toBe('<the field written>');
    expect(bodies.field('evt_1', body.replace('Lease', 'Lures'))).toBe(bodyField(body.replace('Lease', 'Lures')));
    expect(bodies.field('evt_2', body)).toBe(bodyField(body));
  });

  it('forget the oldest events past their bound, fields counted in it', () => {
    const bodies = new RecentBodies(() => undefined);
    const big = 'x'.repeat(300_000);
    for (let i = 0; i < 4; i++) bodies.remember(`evt_${i}`, `{"n":${i}}`, { seg, off: i * 100, len: 10 }, big);
    // 4 x 300,000 characters of fields is over the 2 MiB the window holds (2 bytes a character): the first went.
    expect(bodies.field('evt_0', '{"n":0}')).toBe(bodyField('{"n":0}'));
    expect(bodies.field('evt_3', '{"n":3}')).toBe(big);
  });
});
