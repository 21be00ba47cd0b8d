// The tunnel's state machine. Failure paths use the REAL @ngrok/ngrok library; its
// service address is pointed at loopback (a closed port, or a TCP server that never
// answers) so nothing leaves this machine, which has no internet anyway.
// A successful tunnel cannot be tested here (it needs ngrok's cloud and a real
// authtoken): the online/reconnect paths are driven by a stand-in for ngrok's
// `forward`, said plainly where it is used.
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { ChangeBus } from '../../../src-main/backend/bus.js';
import { createTunnel, NO_TOKEN_MESSAGE, type NgrokLike } from '../../../src-main/backend/tunnel/tunnel.js';
import type { Change } from '@shared/api-types.js';

const TARGET = () => 'http://127.0.0.1:9';
const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();

/** Ends the silent servers, so that the library's stuck connect fails and lets go. */
async function closeSilent(): Promise<void> {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
}

afterEach(closeSilent);

function record(bus: ChangeBus): string[] {
  const seen: string[] = [];
  bus.subscribe((c: Change) => {
    if (c.kind === 'tunnel') seen.push(c.state);
  });
  return seen;
}

async function silentServer(): Promise<string> {
  const s = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('data', () => undefined);
    sock.on('error', () => undefined);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `127.0.0.1:${(s.address() as net.AddressInfo).port}`;
}

describe('tunnel without a token', () => {
  it('is offline with a plain message, and autostart does nothing', async () => {
    const bus = new ChangeBus();
    const events = record(bus);
    const t = createTunnel({ bus, targetUrl: TARGET });
    expect(t.state()).toEqual({ status: 'offline', message: NO_TOKEN_MESSAGE });
    await t.autostart();
    expect(t.state().status).toBe('offline');
    expect(events).not.toContain('connecting');
    const started = await t.start();
    expect(started).toEqual({ status: 'offline', message: NO_TOKEN_MESSAGE });
  });

  it('forgets a token: offline again, and a start without one stays offline', async () => {
    const t = createTunnel({ bus: new ChangeBus(), authtoken: 'tok', targetUrl: TARGET });
    await t.forget();
    expect(t.state()).toEqual({ status: 'offline', message: NO_TOKEN_MESSAGE });
    expect(await t.start()).toEqual({ status: 'offline', message: NO_TOKEN_MESSAGE });
  });

  it('is off (not offline) when a token is configured but not started', () => {
    const t = createTunnel({ bus: new ChangeBus(), authtoken: 'tok', targetUrl: TARGET });
    expect(t.state()).toEqual({ status: 'off' });
  });
});

describe('tunnel with the real library and no reachable ngrok service', () => {
  it("goes connecting then error with ngrok's own message, and never shows the token", async () => {
    const bus = new ChangeBus();
    const events = record(bus);
    const token = 'bogus_authtoken_4242';
    const t = createTunnel({ bus, authtoken: token, targetUrl: TARGET, serverAddr: '127.0.0.1:1', connectTimeoutMs: 10_000 });
    const began = Date.now();
    await t.autostart(); // never throws
    const s = t.state();
    expect(s.status).toBe('error');
    expect(s.message).toMatch(/failed to connect session/i);
    expect(JSON.stringify(s)).not.toContain(token);
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(events).toEqual(['connecting', 'error']);
  });

  it('bounds a connect that the library never finishes (a server that never answers)', async () => {
    const addr = await silentServer();
    const bus = new ChangeBus();
    const t = createTunnel({ bus, authtoken: 'bogus_authtoken', targetUrl: TARGET, serverAddr: addr, connectTimeoutMs: 1500 });
    const began = Date.now();
    const s = await t.start();
    const took = Date.now() - began;
    expect(s.status).toBe('error');
    expect(s.message).toMatch(/No answer from ngrok within 2 s/);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(5000);
    await closeSilent();
  });

  it('a token given to start() replaces a missing one, and stop() returns to off', async () => {
    const t = createTunnel({ bus: new ChangeBus(), targetUrl: TARGET, serverAddr: '127.0.0.1:1', connectTimeoutMs: 8000 });
    expect((await t.start('bogus_token')).status).toBe('error');
    await t.stop();
    expect(t.state()).toEqual({ status: 'off' });
  });
});

describe("tunnel online paths (a stand-in for ngrok.forward: a real tunnel needs ngrok's cloud)", () => {
  function fakeNgrok() {
    const calls: { addr: string; authtoken: string; onStatusChange?: (s: string) => void }[] = [];
    let closed = 0;
    let release: (() => void) | undefined;
    const lib: NgrokLike & { gate?: Promise<void> } = {
      async forward(config) {
        calls.push(config);
        if (lib.gate) await lib.gate;
        return { url: () => `https://abc${calls.length}.ngrok.example`, close: async () => void closed++ };
      },
    };
    return {
      lib,
      calls,
      closed: () => closed,
      hold: () => (lib.gate = new Promise<void>((r) => (release = r))),
      release: () => release?.(),
    };
  }

  it('forwards only to the receiver URL, reports the public URL, follows reconnects and stops', async () => {
    const bus = new ChangeBus();
    const events = record(bus);
    const f = fakeNgrok();
    const t = createTunnel({ bus, authtoken: 'tok', targetUrl: () => 'http://127.0.0.1:4011' }, f.lib);
    await t.autostart();
    expect(f.calls[0].addr).toBe('http://127.0.0.1:4011');
    expect(t.state()).toEqual({ status: 'online', public_url: 'https://abc1.ngrok.example' });
    f.calls[0].onStatusChange?.('closed');
    expect(t.state().status).toBe('connecting');
    f.calls[0].onStatusChange?.('connected');
    expect(t.state().status).toBe('online');
    await t.stop();
    expect(t.state()).toEqual({ status: 'off' });
    expect(f.closed()).toBe(1);
    expect(events).toEqual(['connecting', 'online', 'connecting', 'online', 'off']);
  });

  it('a listener that arrives after stop() is closed, not used', async () => {
    const f = fakeNgrok();
    f.hold();
    const t = createTunnel({ bus: new ChangeBus(), authtoken: 'tok', targetUrl: TARGET }, f.lib);
    const pending = t.start();
    expect(t.state().status).toBe('connecting');
    await t.stop();
    f.release();
    await pending;
    expect(t.state()).toEqual({ status: 'off' });
    expect(f.closed()).toBe(1);
  });
});
