// The engine asks, for every attempt, whether its URL is one of the receiver's tunnel
// URLs while the tunnel is down (subscription-mover.ts tunnelOfflineCheck). Most URLs
// cannot name an inbox and are answered without parsing; these cases pin that the short
// cut never changes an answer, including URLs the URL parser rewrites (tabs and newlines
// are dropped, so "in\tb_" names an inbox). The receiver and its store are real; the
// tunnel's state is set by hand (the ngrok cloud cannot be reached from a test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type ReceiverHarness } from './harness.js';
import { tunnelOfflineCheck } from '../../../src-main/backend/receiver/subscription-mover.js';
import type { TunnelState } from '@shared/receiver-types.js';

let h: ReceiverHarness;
let tunnel: TunnelState = { status: 'off' };
const check = () => tunnelOfflineCheck({ state: () => tunnel }, h.receiver);

beforeAll(async () => {
  h = await startReceiver();
  h.receiver.inboxes.notePublicUrl('https://old-tunnel.invalid');
});
afterAll(() => h.stop());

describe('tunnelOfflineCheck', () => {
  it('says yes for a past public URL of an inbox while the tunnel is down, also when the parser must drop a tab or newline first', () => {
    tunnel = { status: 'off' };
    const down = check();
    expect(down('https://old-tunnel.invalid/in/inb_abc123')).toBe(true);
    expect(down('https://old-tunnel.invalid/in/inb_abc123/deeper')).toBe(true);
    expect(down('https://old-tunnel.invalid/in/in\tb_abc123')).toBe(true);
    expect(down('https://old-tunnel.invalid/in/i\nnb_abc123')).toBe(true);
  });

  it('says no for URLs that name no inbox, local inbox URLs, and any URL while the tunnel is online', () => {
    tunnel = { status: 'off' };
    const down = check();
    expect(down('https://old-tunnel.invalid/hook')).toBe(false);
    expect(down('https://old-tunnel.invalid/in/INB_abc123')).toBe(false);
    expect(down('https://elsewhere.invalid/in/inb_abc123')).toBe(false);
    expect(down(`${h.base}/in/inb_abc123`)).toBe(false);
    expect(down('not a url inb_')).toBe(false);
    tunnel = { status: 'online', public_url: 'https://new-tunnel.invalid' };
    expect(down('https://old-tunnel.invalid/in/inb_abc123')).toBe(false);
  });
});
