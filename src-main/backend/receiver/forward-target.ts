// Where a forwarding inbox may send what it receives. Guards against the receiver, whose
// inboxes anyone can reach once the tunnel is up, becoming a way into other machines
// (SSRF): a forward target must be http(s) on a loopback name (localhost, *.localhost,
// 127.0.0.0/8 or ::1 written as such: net/address-policy.ts isLoopbackName) unless the
// setting COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST is on. Checked when the mode is set and
// again before every forward (an imported inbox, a setting turned off since); at connect
// time the address policy's connector (net/guarded-connect.ts) checks the address
// actually reached, so with the setting on, cloud metadata, 0.0.0.0 and reserved ranges
// stay refused, and a name cannot resolve its way around the rule.
import { newAgent, type Agent } from '../net/undici.js';
import { validationError } from '../errors.js';
import { isIP } from 'node:net';
import { addressRefusal, isLoopbackName, nonCanonicalHost } from '../net/address-policy.js';
import { guardedConnector } from '../net/guarded-connect.js';

export const FORWARD_ANY_HOST_SETTING = 'COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST';

/** Why `url` may not be a forward target, or null when it may. */
export function forwardTargetProblem(url: string, anyHost: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must use http or https';
  if (u.username || u.password) return 'must not carry a user name or password';
  if (u.hash) return 'must not have a #fragment';
  const odd = nonCanonicalHost(url);
  if (odd) return odd;
  if (!anyHost && !isLoopbackName(u.hostname)) {
    return `must be on this machine (localhost, 127.0.0.1 or [::1]); forwarding to other hosts needs the setting ${FORWARD_ANY_HOST_SETTING}=1`;
  }
  // An address written as such is judged now (metadata, 0.0.0.0, reserved: never); names, at connect time.
  const bare = u.hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? addressRefusal(bare, bare, { allowPrivate: true }) : null;
}

/** Throws the one 422 naming `field` when `url` may not be a forward target. */
export function checkForwardTarget(url: string, anyHost: boolean, field = 'response.url'): void {
  const problem = forwardTargetProblem(url, anyHost);
  if (problem) throw validationError([{ field, message: problem }]);
}

const agents = new Map<boolean, Agent>();

/** The connection pool forwards use: the address policy applied to the address connected. */
export function forwardAgent(anyHost: boolean): Agent {
  let a = agents.get(anyHost);
  if (!a) {
    // Loopback-only targets pass the policy as loopback names; with the setting on, private networks too.
    a = newAgent({ connect: guardedConnector({ allowPrivate: anyHost }) });
    agents.set(anyHost, a);
  }
  return a;
}
