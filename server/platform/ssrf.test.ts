import { describe, expect, it } from 'vitest';
import {
  checkUrlHost,
  createAddressCheck,
  createGuardedLookup,
  findForbiddenAddress,
  ForbiddenAddressError,
  forbiddenRange,
} from './ssrf';

describe('forbiddenRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    // Legacy IPv4 spellings of 127.0.0.1 (inet_aton and the URL parser accept them).
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['017700000001', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    // IPv4-mapped IPv6 is judged by the IPv4 address inside.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    // IPv4-compatible IPv6 (deprecated) is refused whatever it carries.
    ['::7f00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2001::1', 'teredo'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['100::1', 'discard'],
    ['4000::1', 'reserved'],
    ['example.org', 'invalid'],
  ])('refuses %s (%s)', (address, range) => {
    expect(forbiddenRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '104.18.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(forbiddenRange(address)).toBeUndefined();
    },
  );
});

describe('checkUrlHost', () => {
  const check = createAddressCheck();
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://127.1:8080/',
    'http://0177.0.0.1/',
    'http://[::1]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/',
    'http://localhost:3000/',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ])('refuses %s before connecting', (raw) => {
    expect(() => checkUrlHost(new URL(raw), check)).toThrow(ForbiddenAddressError);
  });

  it('lets public addresses and host names through (names are checked at connect time)', () => {
    expect(() => checkUrlHost(new URL('https://8.8.8.8/'), check)).not.toThrow();
    expect(() => checkUrlHost(new URL('https://api.openalex.org/works'), check)).not.toThrow();
  });
});

describe('createAddressCheck allow-list (tests and local development only)', () => {
  it('allows exactly the listed addresses, ranges and names', () => {
    const check = createAddressCheck(['127.0.0.1', '10.1.0.0/16', 'Fixture.Test']);
    expect(check('127.0.0.1', '127.0.0.1')).toBeUndefined();
    expect(check('::ffff:127.0.0.1', 'x')).toBeUndefined();
    expect(check('127.0.0.2', '127.0.0.2')).toBe('loopback');
    expect(check('::1', 'localhost')).toBe('loopback');
    expect(check('10.1.200.3', 'x')).toBeUndefined();
    expect(check('10.2.0.1', 'x')).toBe('private');
    expect(check('192.168.1.1', 'fixture.test')).toBeUndefined();
    expect(check('169.254.169.254', 'metadata')).toBe('linkLocal');
  });

  it('is empty by default', () => {
    expect(createAddressCheck()('127.0.0.1', 'localhost')).toBe('loopback');
  });
});

describe('createGuardedLookup (connect time)', () => {
  it('fails when a name resolves to a refused address', async () => {
    const lookup = createGuardedLookup(createAddressCheck());
    const error = await new Promise<unknown>((resolve) =>
      lookup('localhost', {}, (err) => resolve(err)),
    );
    expect(findForbiddenAddress(error)?.range).toBe('loopback');
  });

  it('passes the addresses on when they are allowed', async () => {
    const lookup = createGuardedLookup(createAddressCheck(['127.0.0.1', '::1']));
    const address = await new Promise<unknown>((resolve, reject) =>
      lookup('localhost', { all: true }, (err, addresses) =>
        err ? reject(err) : resolve(addresses),
      ),
    );
    expect(Array.isArray(address) && address.length).toBeGreaterThan(0);
  });
});
