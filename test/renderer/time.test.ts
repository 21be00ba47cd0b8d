// Relative times: a past event never in the future tense, a time to come never in the past.
import { describe, expect, it } from 'vitest';
import { relative } from '../../src-renderer/components/Time.js';

const now = Date.parse('2026-11-26T12:00:00Z');

describe('relative', () => {
  it('reads a past event as past, and one stamped ahead of this clock as now', () => {
    expect(relative('2026-11-26T11:57:00Z', now)).toBe('3 minutes ago');
    expect(relative('2026-11-26T12:00:29Z', now)).toBe('now');
    expect(relative('2026-11-27T12:00:00Z', now)).toBe('now');
  });

  it('reads a time to come as future, and one already passed as now', () => {
    expect(relative('2026-11-26T12:10:00Z', now, 'future')).toBe('in 10 minutes');
    expect(relative('2026-11-26T11:59:00Z', now, 'future')).toBe('now');
  });
});
