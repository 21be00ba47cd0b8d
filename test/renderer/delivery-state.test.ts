// One word and one colour per delivery state, wherever a delivery is shown.
import { describe, expect, it } from 'vitest';
import { deliveryState } from '../../src-renderer/components/Badge.js';

describe('deliveryState', () => {
  it('calls a delivery waiting for its next try "retrying" in amber, and one never tried "not sent yet"', () => {
    expect(deliveryState('pending', 2)).toEqual({ word: 'retrying', tone: 'warning' });
    expect(deliveryState('pending', 0)).toEqual({ word: 'not sent yet', tone: 'neutral' });
    expect(deliveryState('succeeded', 1)).toEqual({ word: 'succeeded', tone: 'success' });
    expect(deliveryState('failed', 8)).toEqual({ word: 'failed', tone: 'danger' });
  });
});
