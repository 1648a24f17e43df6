import dns from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * The address rules of the SSRF guard, shared by the outbound HTTP client
 * (`http.ts`) and the model layer's user base URLs (`agents/llm/base-url-guard.ts`).
 *
 * Only public unicast addresses pass. Refused: loopback, private (RFC 1918, unique-local),
 * link-local (which holds the cloud metadata services at 169.254.169.254 and fd00:ec2::254),
 * carrier-grade NAT, multicast, broadcast, reserved and documentation ranges, unspecified
 * addresses, IPv6 transition forms that can smuggle an IPv4 address (IPv4-mapped ::ffff:a.b.c.d
 * is judged by the IPv4 address it carries; IPv4-compatible ::a.b.c.d, NAT64, 6to4 and Teredo
 * are refused outright) and IPv6 outside the global unicast block 2000::/3. Legacy IPv4
 * spellings (2130706433, 0x7f.1, 127.1, 0177.0.0.1) are read as the address they denote, as
 * the WHATWG URL parser and inet_aton do.
 */

/** Range names (ipaddr.js's, plus a few of ours) mapped to the words an error message uses. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address (this includes cloud metadata services)',
  uniqueLocal: 'a private network address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  localhostName: 'a loopback address',
};

export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a reserved address (${range})`;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Parses an address in any spelling ipaddr.js accepts (brackets and an IPv6 zone id allowed),
 * or returns undefined when `host` is not an IP address (a host name).
 */
export function parseAddress(host: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.parse(bare);
}

/**
 * Why an address may not be reached (a range name), or undefined for a public unicast address.
 * A string that is not an IP address at all gives 'invalid'.
 */
export function forbiddenRange(address: string): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return 'invalid';
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return forbiddenRange(v6.toIPv4Address().toString());
    const parts = v6.parts;
    // ::/96 other than :: and ::1 is the deprecated IPv4-compatible form (::127.0.0.1).
    if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1))
      return 'ipv4Compatible';
    const range = v6.range();
    if (range !== 'unicast') return range;
    // Unassigned space: nothing legitimate lives there, and it is not ours to guess.
    if (!v6.match(GLOBAL_UNICAST_V6)) return 'reserved';
    return undefined;
  }
  const range = parsed.range();
  return range === 'unicast' ? undefined : range;
}

/** Host names that mean this machine whatever DNS says. */
export function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** The error a refused address raises; callers find it in the cause chain. */
export class ForbiddenAddressError extends Error {
  constructor(
    readonly host: string,
    readonly range: string,
  ) {
    super(`${host} resolves to ${describeRange(range)}`);
    this.name = 'ForbiddenAddressError';
  }
}

/** Finds a ForbiddenAddressError anywhere in an error's cause chain. */
export function findForbiddenAddress(error: unknown): ForbiddenAddressError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    if (current instanceof ForbiddenAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Decides whether an address may be reached: a range name refuses it, undefined allows it. */
export type AddressCheck = (address: string, host: string) => string | undefined;

/**
 * The default check, optionally with an allow-list.
 *
 * UNSAFE FOR PRODUCTION: every entry of `allow` is reachable even when it is loopback or private.
 * It exists so tests and local development can reach fixture servers on 127.0.0.1. Entries are
 * host names (matched case-insensitively against the name in the URL), IP addresses or CIDR
 * ranges (matched against the resolved address). Empty by default.
 */
export function createAddressCheck(allow: readonly string[] = []): AddressCheck {
  const names = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of allow) {
    const value = entry.trim();
    if (!value) continue;
    if (value.includes('/')) {
      ranges.push(ipaddr.parseCIDR(value));
    } else {
      const address = parseAddress(value);
      if (address) ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      else names.add(value.toLowerCase());
    }
  }
  const allowed = (address: string, host: string): boolean => {
    if (names.has(host.toLowerCase().replace(/^\[|\]$/g, ''))) return true;
    const parsed = parseAddress(address);
    if (!parsed) return false;
    const candidates = [parsed];
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      candidates.push((parsed as ipaddr.IPv6).toIPv4Address());
    return candidates.some((c) =>
      ranges.some(([net, bits]) => net.kind() === c.kind() && c.match(net, bits)),
    );
  };
  return (address, host) => (allowed(address, host) ? undefined : forbiddenRange(address));
}

/**
 * Checks a URL's host before any connection: a literal address must pass `check`, and
 * `localhost` names are refused unless allowed. Host names are checked at connect time.
 */
export function checkUrlHost(url: URL, check: AddressCheck): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (parseAddress(host)) {
    const range = check(host, host);
    if (range) throw new ForbiddenAddressError(host, range);
  } else if (isLocalhostName(host) && check('127.0.0.1', host)) {
    throw new ForbiddenAddressError(host, 'localhostName');
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A dns.lookup for undici's `connect.lookup` that fails when any address the host resolves to
 * is refused by `check`. It runs for every new connection, so a DNS answer that changes between
 * a check and the request (rebinding) and every redirect target are judged on what is actually
 * dialled.
 */
export function createGuardedLookup(check: AddressCheck) {
  return (
    hostname: string,
    options: LookupOptions | LookupAllOptions,
    callback: LookupCallback,
  ): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const { address } of addresses) {
        const range = check(address, hostname);
        if (range) return callback(new ForbiddenAddressError(hostname, range), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new ForbiddenAddressError(hostname, 'invalid'), []);
      callback(null, first.address, first.family);
    });
  };
}
