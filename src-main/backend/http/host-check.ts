// The Host check of the API listener (service API, console API and console page).
// Guards against DNS rebinding: a hostile web page whose own name is made to resolve
// to 127.0.0.1 reaches the listener with that name in `Host`, and would otherwise call
// the API with whatever it can send. Only the listener's own names pass:
// `127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`, and the names the user lists
// in COUNTERSIGN_ALLOWED_HOSTS (a name without a port matches with the listener's port
// and without one, as a proxy in front forwards it). The port is the one the request
// arrived on. The receiver is not checked: a tunnel reaches it under a public name.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

export interface HostPolicy {
  /** Whether `host` (a Host header) names this listener, reached on `port`. Cheap: one set lookup. */
  allows(host: string | undefined, port: number | undefined): boolean;
  /** The origins of pages served under the allowed names. */
  origins(port: number | undefined): string[];
}

export function hostPolicy(extra: readonly string[]): HostPolicy {
  let cached: { port: number | undefined; hosts: Set<string>; origins: string[] } | undefined;
  const forPort = (port: number | undefined) => {
    if (cached && cached.port === port) return cached;
    const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
    for (const name of extra) {
      hosts.add(name);
      if (!/:\d+$/.test(name)) hosts.add(`${name}:${port}`);
    }
    const origins = [...hosts].map((h) => `http://${h}`);
    cached = { port, hosts, origins };
    return cached;
  };
  return {
    allows(host, port) {
      if (!host || port === undefined) return false;
      const { hosts } = forPort(port);
      return hosts.has(host) || hosts.has(host.toLowerCase());
    },
    origins: (port) => forPort(port).origins,
  };
}

/** Refuses (403 forbidden) a request whose Host is not one of the listener's names. */
export function hostGuard(policy: HostPolicy): RequestHandler {
  return (req, _res, next) => {
    if (!policy.allows(req.headers.host, req.socket.localPort)) {
      return next(
        new ApiError('forbidden', 'This address is served only as 127.0.0.1, localhost or [::1], or a name in COUNTERSIGN_ALLOWED_HOSTS.'),
      );
    }
    next();
  };
}
