// Which address `countersign listen` subscribes the service to (commands/listen.ts): the
// inbox's local URL when the service runs on this machine (loopback), else the tunnel's
// public URL, and exit 3 saying how to open the tunnel when it is not online. The
// decision on its own, for every loopback spelling; both paths also run end to end with
// the command as a child process (test/cli/listen-connection.test.ts for a loopback
// remote, test/cli/listen-tunnel.test.ts for one behind https with the tunnel faked).
import { describe, expect, it } from 'vitest';
import { subscriptionUrl, type Sides } from '../../../src-main/cli/commands/listen.js';
import { httpTarget } from '../../../src-main/cli/target.js';
import { CliError, EXIT } from '../../../src-main/cli/exit-codes.js';

const local = httpTarget('instance', 'http://127.0.0.1:4010', 'k', 'http://127.0.0.1:4011', 'the local instance');
const inbox = { id: 'inb_1', local_url: 'http://127.0.0.1:4011/in/inb_1', public_url: null as string | null };
const sides = (apiUrl: string): Sides => ({
  local,
  service: httpTarget('connection', apiUrl, 'k', null, `the connection "P" at ${apiUrl}`),
});

describe('listen: the address the service is subscribed to', () => {
  it('is the local URL for a service on loopback', () => {
    for (const api of [
      'http://127.0.0.1:5000',
      'http://localhost:5000',
      'http://[::1]:5000',
      'https://localhost:5443',
      'http://127.0.0.2:5000',
    ])
      expect(subscriptionUrl(sides(api), { ...inbox, public_url: 'https://x.ngrok.app/in/inb_1' })).toBe(inbox.local_url);
  });

  it('is the tunnel’s public URL for a service elsewhere', () => {
    for (const api of ['https://api.example.com', 'https://192.0.2.10:8443', 'https://localhost.example.com'])
      expect(subscriptionUrl(sides(api), { ...inbox, public_url: 'https://x.ngrok.app/in/inb_1' })).toBe('https://x.ngrok.app/in/inb_1');
  });

  it('is exit 3, saying how to open the tunnel, for a service elsewhere with the tunnel offline', () => {
    let err: unknown;
    try {
      subscriptionUrl(sides('https://api.example.com'), inbox);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.unavailable);
    expect((err as CliError).message).toContain('the connection "P" at https://api.example.com is not on this machine');
    expect((err as CliError).message).toContain('tunnel is not online');
  });
});
