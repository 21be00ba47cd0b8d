// The address policy (SSRF guard): every form the adversarial tester used is classified
// and refused, names are judged by what they resolve to, and the setting lifts only
// what it says. The resolver is injected here (a pure unit test of the filter); the
// API test drives a real name through the real resolver.
import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import {
  addressRefusal,
  classifyAddress,
  guardedLookup,
  isLoopbackName,
  nonCanonicalHost,
  AddressRefusedError,
} from '../../../src-main/backend/net/address-policy.js';

const off = { allowPrivate: false };
const on = { allowPrivate: true };

describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::1', 'private'],
    ['fe80::1', 'link-local'],
    ['169.254.10.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['[fe80::1]', 'link-local'],
    ['224.0.0.1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1', 'public'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });
});

describe('addressRefusal', () => {
  it('lets loopback through only under a loopback name', () => {
    expect(addressRefusal('localhost', '127.0.0.1', off)).toBeNull();
    expect(addressRefusal('127.0.0.1', '127.0.0.1', off)).toBeNull();
    expect(addressRefusal('[::1]', '::1', off)).toBeNull();
    expect(addressRefusal('rebind.example', '127.0.0.1', off)).toMatch(/"rebind\.example" resolves to 127\.0\.0\.1, a loopback address/);
    // IPv4-mapped loopback is not one of the loopback names.
    expect(isLoopbackName('::ffff:127.0.0.1')).toBe(false);
    expect(addressRefusal('::ffff:127.0.0.1', '::ffff:127.0.0.1', off)).toMatch(/Refused/);
  });

  it('refuses private and link-local unless the setting is on, and names the setting', () => {
    expect(addressRefusal('10.0.0.5', '10.0.0.5', off)).toMatch(/private network address.*COUNTERSIGN_ALLOW_PRIVATE_TARGETS=1/);
    expect(addressRefusal('fe80::1', 'fe80::1', off)).toMatch(/link-local/);
    expect(addressRefusal('10.0.0.5', '10.0.0.5', on)).toBeNull();
    expect(addressRefusal('box.lan', '192.168.1.9', on)).toBeNull();
    expect(addressRefusal('app.example.com', '93.184.216.34', off)).toBeNull();
  });

  it('never allows metadata, 0.0.0.0 or reserved addresses, whatever the setting', () => {
    for (const ip of ['169.254.169.254', '0.0.0.0', '::', '::ffff:169.254.169.254', '239.1.1.1'])
      expect(addressRefusal(ip, ip, on), ip).toMatch(/never connects there/);
  });
});

describe('nonCanonicalHost', () => {
  it('names addresses written in decimal, hex, octal or short forms', () => {
    expect(nonCanonicalHost('https://2130706433/hook')).toMatch(/means 127\.0\.0\.1/);
    expect(nonCanonicalHost('https://0x7f.1/')).toMatch(/means 127\.0\.0\.1/);
    expect(nonCanonicalHost('https://0177.0.0.1:8443/')).toMatch(/means 127\.0\.0\.1/);
    expect(nonCanonicalHost('https://2852039166/')).toMatch(/means 169\.254\.169\.254/);
  });
  it('accepts names and usual addresses', () => {
    expect(nonCanonicalHost('https://127.0.0.1/')).toBeNull();
    expect(nonCanonicalHost('https://example.com/x')).toBeNull();
    expect(nonCanonicalHost('https://[::1]:8443/')).toBeNull();
  });
});

describe('guardedLookup', () => {
  const fake =
    (table: Record<string, LookupAddress[]>) =>
    (host: string, _o: unknown, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
      cb(null, table[host] ?? []);
  const run = (lookup: ReturnType<typeof guardedLookup>, host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) => lookup(host, { all }, (err, address) => resolve({ err, address })));

  it('refuses a name that resolves only to private addresses', async () => {
    const lookup = guardedLookup(off, fake({ 'internal.test': [{ address: '10.0.0.7', family: 4 }] }));
    const { err } = await run(lookup, 'internal.test', false);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect(err!.message).toMatch(/"internal\.test" resolves to 10\.0\.0\.7/);
  });

  it('keeps only the allowed addresses of a mixed answer', async () => {
    const table = {
      'mixed.test': [
        { address: '10.0.0.7', family: 4 },
        { address: '93.184.216.34', family: 4 },
      ],
    };
    expect((await run(guardedLookup(off, fake(table)), 'mixed.test', true)).address).toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect((await run(guardedLookup(off, fake(table)), 'mixed.test', false)).address).toBe('93.184.216.34');
  });
});
