// undici's connector (forwarding: receiver/forward-target.ts) with the address policy
// (address-policy.ts) applied at connect time, where it cannot be dodged: a host written
// as an address is checked before any byte leaves, a name is resolved through guardedLookup (only allowed addresses are
// tried), and the address the socket actually connected to is checked again before a
// request is written on it (so a resolver that changes its mind in between — DNS
// rebinding — gains nothing). The delivery client applies the same three checks to its
// own connections (net/h1-connection.ts).
import { isIP, type Socket } from 'node:net';
import type { buildConnector as Connect } from 'undici';
import { buildConnector } from './undici.js';
import { AddressRefusedError, addressRefusal, guardedLookup, type AddressPolicy } from './address-policy.js';

const bare = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

export function guardedConnector(policy: AddressPolicy, options: Connect.BuildOptions = {}): Connect.connector {
  // undici's connector is built by the first connection (net/undici.ts loads undici then).
  let base: Connect.connector | undefined;
  return (opts, callback) => {
    const host = bare(opts.hostname);
    if (isIP(host) !== 0) {
      const refusal = addressRefusal(host, host, policy);
      if (refusal) return callback(new AddressRefusedError(refusal), null);
    }
    base ??= buildConnector({ ...options, lookup: guardedLookup(policy) } as Connect.BuildOptions);
    base(opts, (err, socket) => {
      if (err) return callback(err, null);
      const remote = (socket as Socket).remoteAddress;
      const refusal = remote === undefined ? 'Refused: the connected address is unknown.' : addressRefusal(host, remote, policy);
      if (refusal) {
        (socket as Socket).destroy();
        return callback(new AddressRefusedError(refusal), null);
      }
      callback(null, socket!);
    });
  };
}
