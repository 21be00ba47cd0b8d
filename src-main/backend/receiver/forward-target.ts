// Where a forwarding inbox may send what it receives. Guards against the receiver, whose
// inboxes anyone can reach once the tunnel is up, becoming a way into other machines
// (SSRF): a forward target must be http(s) on a loopback address (127.0.0.0/8, ::1, or
// the name localhost) unless the setting COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST is on.
// Checked when the mode is set and again before every forward (an imported inbox, a
// setting turned off since). The host is judged as written: a DNS name other than
// localhost is not loopback, whatever it resolves to now.
import { isIP } from 'node:net';
import { validationError } from '../errors.js';

export const FORWARD_ANY_HOST_SETTING = 'COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST';

/** Whether a URL's hostname (as `new URL()` gives it, IPv6 in brackets) is a loopback address. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h) || /^::ffff:7f[0-9a-f]{2}:/.test(h);
  return false;
}

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
  if (!anyHost && !isLoopbackHostname(u.hostname)) {
    return `must be on this machine (localhost, 127.0.0.1 or [::1]); forwarding to other hosts needs the setting ${FORWARD_ANY_HOST_SETTING}=1`;
  }
  return null;
}

/** Throws the one 422 naming `field` when `url` may not be a forward target. */
export function checkForwardTarget(url: string, anyHost: boolean, field = 'response.url'): void {
  const problem = forwardTargetProblem(url, anyHost);
  if (problem) throw validationError([{ field, message: problem }]);
}
