// The receiver's limits as configured (COUNTERSIGN_RECEIVER_*): defaults, overrides,
// refusals that name the setting, and the values reaching the receiver and its listener.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src-main/backend/config.js';
import { DEFAULT_LIMITS } from '../../../src-main/backend/receiver/types.js';
import { startReceiver } from './harness.js';

describe('receiver settings', () => {
  it('default to the documented limits', () => {
    expect(loadConfig([], {}).receiver).toEqual({
      bodyLimit: 1024 * 1024,
      memoryBudget: 64 * 1024 * 1024,
      maxOpenPerInbox: 64,
      requestTimeoutMs: 30_000,
      forwardToAnyHost: false,
    });
  });

  it('are read from the environment and refused, by name, when out of range', () => {
    const r = loadConfig([], {
      COUNTERSIGN_RECEIVER_BODY_LIMIT: '65536',
      COUNTERSIGN_RECEIVER_MEMORY_BUDGET: '1048576',
      COUNTERSIGN_RECEIVER_MAX_OPEN_PER_INBOX: '8',
      COUNTERSIGN_RECEIVER_REQUEST_TIMEOUT_MS: '5000',
      COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST: '1',
    }).receiver;
    expect(r).toEqual({ bodyLimit: 65536, memoryBudget: 1048576, maxOpenPerInbox: 8, requestTimeoutMs: 5000, forwardToAnyHost: true });
    for (const [name, value] of [
      ['COUNTERSIGN_RECEIVER_BODY_LIMIT', '10'],
      ['COUNTERSIGN_RECEIVER_MEMORY_BUDGET', 'lots'],
      ['COUNTERSIGN_RECEIVER_MAX_OPEN_PER_INBOX', '0'],
      ['COUNTERSIGN_RECEIVER_REQUEST_TIMEOUT_MS', '1.5'],
      ['COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST', 'yes please'],
    ]) {
      expect(() => loadConfig([], { [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig([], { [name]: value }), name).toThrow(name);
    }
    // A budget that cannot hold two bodies would refuse nearly everything.
    expect(() => loadConfig([], { COUNTERSIGN_RECEIVER_BODY_LIMIT: '1048576', COUNTERSIGN_RECEIVER_MEMORY_BUDGET: '1572864' })).toThrow(
      /COUNTERSIGN_RECEIVER_MEMORY_BUDGET.*twice COUNTERSIGN_RECEIVER_BODY_LIMIT/,
    );
  });

  it('reach the receiver, with the header timeout never longer than the request timeout', async () => {
    const h = await startReceiver();
    try {
      expect(h.receiver.limits).toMatchObject({ ...loadConfig([], {}).receiver, headersTimeoutMs: DEFAULT_LIMITS.headersTimeoutMs });
      expect(h.server.requestTimeout).toBe(30_000);
      expect(h.server.headersTimeout).toBe(10_000);
      expect(h.server.maxConnections).toBe(512);
    } finally {
      await h.stop();
    }
  });
});
