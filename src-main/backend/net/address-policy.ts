// Which network addresses the service may connect to on a user's behalf (SSRF guard).
// Guards against a subscription URL (or a forward target) that makes the service reach
// into the machine's own network: cloud metadata (169.254.169.254), private ranges,
// link-local, 0.0.0.0, IPv4-mapped IPv6, NAT64, and names that resolve to any of these
// (DNS rebinding). The rules are written in docs/api.md ("Where deliveries may go").
//
// API (pure, no I/O except the lookup wrapper, which calls the resolver it is given):
//   classifyAddress(ip)                  → AddressClass: 'public' | 'loopback' | 'private' | 'link-local' |
//                                          'metadata' | 'unspecified' | 'reserved' (IPv4-mapped and NAT64
//                                          IPv6 are classified by the IPv4 address they carry)
//   isLoopbackName(host)                 → true for the names allowed to reach loopback: localhost, *.localhost,
//                                          127.0.0.0/8 and ::1 written as addresses (brackets optional)
//   addressRefusal(host, ip, policy)     → null when `ip` (what `host` resolved to, or connected to) may be
//                                          used, else a sentence for a person saying why not
//   nonCanonicalHost(raw)                → a reason when a URL's host is an IP address written in another
//                                          form (decimal 2130706433, hex 0x7f.1, octal 0177.0.0.1, short 127.1)
//   guardedLookup(policy, resolve?)      → a dns.lookup-compatible function that keeps only allowed
//                                          addresses and fails with AddressRefusedError when none is left
//   AddressPolicy = { allowPrivate: boolean }: the user's clearly labelled setting that lifts the private,
//                                          link-local and loopback-by-another-name refusals (never metadata,
//                                          0.0.0.0 or reserved ranges).
// Callers: the delivery sender checks the literal host before dispatch and the address actually
// connected after (net/guarded-connect.ts); subscription URLs are checked when saved.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'reserved';

export interface AddressPolicy {
  /** COUNTERSIGN_ALLOW_PRIVATE_TARGETS: private, link-local and loopback-by-name allowed. */
  allowPrivate: boolean;
}

function list(v4: [string, number][], v6: [string, number][]): BlockList {
  const b = new BlockList();
  for (const [net, prefix] of v4) b.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) b.addSubnet(net, prefix, 'ipv6');
  return b;
}

const METADATA = list(
  [
    ['169.254.169.254', 32], // AWS, GCP, Azure, OpenStack
    ['100.100.100.200', 32], // Alibaba
    ['168.63.129.16', 32], // Azure wire server
  ],
  [['fd00:ec2::254', 128]],
);
const UNSPECIFIED = list([['0.0.0.0', 8]], [['::', 128]]);
const LOOPBACK = list([['127.0.0.0', 8]], [['::1', 128]]);
const LINK_LOCAL = list([['169.254.0.0', 16]], [['fe80::', 10]]);
const PRIVATE = list(
  [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10], // carrier-grade NAT
    ['192.0.0.0', 24],
    ['198.18.0.0', 15],
  ],
  [['fc00::', 7]],
);
const RESERVED = list(
  [
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
    ['192.0.2.0', 24],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
  ],
  [
    ['ff00::', 8],
    ['2001:db8::', 32],
    ['100::', 64],
  ],
);

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedV4(ip: string): string | undefined {
  const lower = ip.toLowerCase();
  const m = /^(?:::ffff:(?:0:)?|64:ff9b::)(.+)$/.exec(lower);
  if (!m) return undefined;
  const rest = m[1];
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return undefined;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** What kind of address `ip` is (an IPv4 or IPv6 literal; anything else is 'reserved'). */
export function classifyAddress(raw: string): AddressClass {
  const ip = stripBrackets(raw).split('%')[0];
  const family = isIP(ip);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedV4(ip);
    if (v4) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.check(ip, type)) return 'metadata';
  if (UNSPECIFIED.check(ip, type)) return 'unspecified';
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (LINK_LOCAL.check(ip, type)) return 'link-local';
  if (PRIVATE.check(ip, type)) return 'private';
  if (RESERVED.check(ip, type)) return 'reserved';
  return 'public';
}

/** Names that may reach loopback: localhost itself and loopback addresses written as such. */
export function isLoopbackName(host: string): boolean {
  const h = stripBrackets(host.toLowerCase()).replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  return isIP(h) !== 0 && embeddedV4(h) === undefined && classifyAddress(h) === 'loopback';
}

const DESCRIBE: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  unspecified: 'the unspecified address (0.0.0.0 or ::)',
  reserved: 'a reserved or multicast address',
};

export const ALLOW_PRIVATE_SETTING = 'COUNTERSIGN_ALLOW_PRIVATE_TARGETS';

/** Null when `host` may be reached at `ip`; else why not, for a person. */
export function addressRefusal(host: string, ip: string, policy: AddressPolicy): string | null {
  const kind = classifyAddress(ip);
  if (kind === 'public') return null;
  if (kind === 'loopback' && isLoopbackName(host)) return null;
  const what = `${ip} is ${DESCRIBE[kind]}`;
  const named = stripBrackets(host) === stripBrackets(ip) ? what : `"${stripBrackets(host)}" resolves to ${ip}, ${DESCRIBE[kind]}`;
  if (kind === 'metadata' || kind === 'unspecified' || kind === 'reserved') return `Refused: ${named}; the service never connects there.`;
  if (policy.allowPrivate) return null;
  const hint = kind === 'loopback' ? ' Use localhost or 127.0.0.1 for this machine, or set' : ' Set';
  return `Refused: ${named}.${hint} ${ALLOW_PRIVATE_SETTING}=1 to allow private network targets.`;
}

/**
 * A reason when the host of `raw` (as typed) is an IPv4 address in a form other than
 * dotted decimal (the URL parser would silently turn 2130706433 into 127.0.0.1).
 */
export function nonCanonicalHost(raw: string): string | null {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#:\]]+|\[[^\]]*\])/i.exec(raw);
  if (!m) return null;
  const typed = m[1].toLowerCase();
  if (typed.startsWith('[')) return null;
  let parsed: string;
  try {
    parsed = new URL(`http://${typed}/`).hostname;
  } catch {
    return null;
  }
  if (isIP(parsed) === 4 && parsed !== typed.replace(/\.$/, ''))
    return `writes an IP address in an unusual form ("${typed}" means ${parsed}); write it as ${parsed}`;
  return null;
}

/** Thrown (through the lookup callback) when a name resolves only to refused addresses. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly code = 'EADDRREFUSED';
}

type Resolve = (
  host: string,
  options: LookupAllOptions,
  cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A lookup for net/tls.connect that only ever hands back addresses the policy allows. */
export function guardedLookup(policy: AddressPolicy, resolve: Resolve = dnsLookup as unknown as Resolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const allowed = addresses.filter((a) => addressRefusal(hostname, a.address, policy) === null);
      if (allowed.length === 0) {
        const first = addresses[0];
        const reason = first ? addressRefusal(hostname, first.address, policy)! : `"${hostname}" has no address`;
        return callback(new AddressRefusedError(reason), '');
      }
      if (options.all) callback(null, allowed);
      else callback(null, allowed[0].address, allowed[0].family);
    });
  };
}
